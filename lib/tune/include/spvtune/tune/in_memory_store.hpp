#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <spvtune/tune/tune_store.hpp>

namespace spvtune::tune {

/// A thread-safe TuneStore that keeps entries for the life of the object: for tests, and the
/// fallback of a tuner with no persistent store.
///
/// Like a shared cache file, the first entry settled at an address is kept: a later save to it
/// returns that entry in `kept`, unless it was marked for re-tuning.
class InMemoryStore final : public TuneStore {
  public:
    std::optional<TuneEntry> load(const HardwareIdentity& hardware,
                                  const EntryAddress& address) override;
    StoreOutcome save(const HardwareIdentity& hardware, const EntryAddress& address,
                      const std::vector<CandidateDescription>& candidates,
                      const std::string& key_display, const TuneEntry& entry) override;
    void mark_needs_retune(const HardwareIdentity& hardware, const EntryAddress& address) override;
    std::vector<std::string> keys(const HardwareIdentity& hardware, const std::string& tuner,
                                  std::uint64_t checksum) override;

    /// Number of entries held.
    std::size_t size() const;

  private:
    using Address = std::tuple<std::string, std::string, std::uint64_t, std::string>;
    static Address address_of(const HardwareIdentity& hardware, const EntryAddress& address);

    mutable std::mutex mutex_;
    std::map<Address, TuneEntry> entries_;
};

}  // namespace spvtune::tune
