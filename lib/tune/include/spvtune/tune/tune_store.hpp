#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <spvtune/tune/hardware_identity.hpp>
#include <spvtune/tune/tune_entry.hpp>

namespace spvtune::tune {

/// What a store did with a settled entry.
struct StoreOutcome {
    /// True when the entry is now stored; false when another writer had already settled the same
    /// address first (that earlier entry is kept and returned in `kept`), or when the store
    /// could only keep it in memory.
    bool stored = false;
    std::optional<TuneEntry> kept;
    /// Human-readable note for the user ("kept the entry another process settled first", ...).
    std::string message;
};

/// Persistence of tuning results, one logical store per hardware identity.
///
/// The tuner calls `load` on a miss before tuning and `save` as soon as a key is settled, so an
/// interrupted run keeps every finished key. Implementations must be thread-safe.
class TuneStore {
  public:
    virtual ~TuneStore() = default;

    /// The entry for `address` on `hardware`, if one was stored.
    virtual std::optional<TuneEntry> load(const HardwareIdentity& hardware,
                                          const EntryAddress& address) = 0;

    /// Persist a settled entry. `candidates` describes the candidate list behind
    /// `address.checksum`; `key_display` is the key's printed form, for readers of the file.
    virtual StoreOutcome save(const HardwareIdentity& hardware, const EntryAddress& address,
                              const std::vector<CandidateDescription>& candidates,
                              const std::string& key_display, const TuneEntry& entry) = 0;

    /// Mark an entry for re-tuning (a --retune run began measuring it again, and until the new
    /// entry is saved the old one must not answer); no-op when absent.
    virtual void mark_needs_retune(const HardwareIdentity& hardware,
                                   const EntryAddress& address) = 0;

    /// The canonical key JSON of every key `tuner` has an entry for under the candidate list
    /// `checksum` on `hardware` (MissPolicy::run_nearest looks among them). A store that cannot
    /// list its keys returns none, the default: such a miss runs the preferred candidate.
    virtual std::vector<std::string> keys(const HardwareIdentity& /*hardware*/,
                                          const std::string& /*tuner*/,
                                          std::uint64_t /*checksum*/) {
        return {};
    }
};

}  // namespace spvtune::tune
