#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <spvtune/cache/cache_document.hpp>

namespace spvtune::cache {

enum class EntryChange {
    added,           ///< only the new document has it
    removed,         ///< only the old document has it
    winner_changed,  ///< both have it, with different winners
    stale,           ///< the new document has it marked for re-tune
};

/// "added", "removed", "winner changed" or "stale".
std::string_view entry_change_name(EntryChange change) noexcept;

/// A median's confidence interval, in nanoseconds per run.
struct MedianInterval {
    double low_ns = 0;
    double high_ns = 0;
};

/// One entry that differs between two documents of the same hardware.
struct EntryDifference {
    EntryChange change = EntryChange::added;
    std::string tuner;
    std::uint64_t checksum = 0;
    std::string printed_key;
    std::string old_winner;  ///< empty when added
    std::string new_winner;  ///< empty when removed
    /// The winners' median times, when the entries hold them.
    std::optional<double> old_ns;
    std::optional<double> new_ns;
    /// The winners' confidence intervals, when the entries hold them.
    std::optional<MedianInterval> old_interval;
    std::optional<MedianInterval> new_interval;
    /// For a changed winner whose change the runs' own statistics do not support, why:
    /// "tied with X in the new run" (the new run ranked the old winner tied with its own),
    /// "tied with X in the old run", or "the winners' intervals overlap"; empty otherwise.
    std::string within_noise;
};

/// What changed from `old_document` to `new_document`, in address order. Entries equal in
/// winner (and not stale in the new one) are not listed. A changed winner says whether the
/// change is within the ties or noise the entries recorded (EntryDifference::within_noise).
std::vector<EntryDifference> diff_caches(const CacheDocument& old_document,
                                         const CacheDocument& new_document);

}  // namespace spvtune::cache
