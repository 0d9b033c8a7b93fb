#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include <spvtune/tune/tune_entry.hpp>

namespace spvtune::tune {

/// Where the candidate that produced an execute's output came from.
enum class LookupSource {
    memory,    ///< a settled result this process holds (the hit path)
    store,     ///< read back from the store on a miss
    tuned,     ///< settled by this call (benchmarked, or the only runnable candidate)
    pending,   ///< another thread or an outer call is tuning the key: best-priority candidate ran
    compiled,  ///< compile-only mode: every candidate prepared, the first that works ran
    fallback,  ///< the settled winner failed; a lower-ranked candidate ran instead
    untuned,   ///< MissPolicy::run_preferred miss: best-priority candidate ran, nothing recorded
    /// MissPolicy::run_nearest miss: the winner of the nearest key the store holds ran (see
    /// ExecutionInfo::nearest_key), nothing recorded.
    nearest,
};

std::string_view to_string(LookupSource source);

/// What an execute did, for callers that want to know (optional, allocation-free).
struct ExecutionInfo {
    LookupSource source = LookupSource::memory;
    /// Index, in the tunable set, of the candidate whose output was returned.
    std::size_t candidate = 0;
    /// The key's settled entry (ranking with statistics, failures) when the output came from a
    /// settled winner or its fallback: memory, store, tuned, fallback. Null for pending, compiled
    /// and untuned runs; for a nearest run, the nearest key's entry. When execute returns an
    /// error, only this member is written: the entry whose winner and ranked candidates all
    /// failed, if there was one.
    std::shared_ptr<const TuneEntry> entry;
    /// LookupSource::nearest: the printed form of the stored key whose winner ran ("n=4096").
    std::string nearest_key = {};
};

enum class TuneEventKind {
    tuning_started,   ///< a key is being benchmarked
    tuning_finished,  ///< a key is settled; `entry` holds the result
    store_hit,        ///< a miss was answered by the store
    store_note,       ///< about a save, or a stored entry that was not used (`message` says what)
    fallback_used,    ///< a settled winner failed; `candidate` ran instead, `message` says why
    checks_note,      ///< checks mode could not compare (`message` says why)
    /// MissPolicy::run_preferred: nothing settled, `candidate` ran untuned; `message` names each
    /// candidate passed over (`passed over NAME: reason`), a more preferred one that failed too.
    untuned_miss,
    /// A candidate is about to be prepared, run or measured for the key (once per sample while
    /// benchmarking), for progress displays; never on the hit path.
    candidate_started,
    /// A key could not be tuned: no candidate produced a correct output; `message` says why.
    tuning_failed,
    /// MissPolicy::run_nearest: nothing settled, `candidate` (the winner of the nearest stored
    /// key, which `message` names) ran.
    nearest_used,
};

std::string_view to_string(TuneEventKind kind);

/// A notable thing a tuner did. Views are valid only during the callback. Memory hits are not
/// reported: that path stays allocation-free (see ExecutionInfo).
struct TuneEvent {
    TuneEventKind kind = TuneEventKind::tuning_started;
    std::string_view tuner;
    std::string_view hardware;
    std::uint64_t checksum = 0;
    std::string_view key;
    std::string_view candidate;
    std::string_view message;
    const TuneEntry* entry = nullptr;
};

/// Receives events; may be called from several threads at once, never under a tuner lock.
using Reporter = std::function<void(const TuneEvent&)>;

}  // namespace spvtune::tune
