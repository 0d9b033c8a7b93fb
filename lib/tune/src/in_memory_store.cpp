#include <spvtune/tune/in_memory_store.hpp>

namespace spvtune::tune {

InMemoryStore::Address InMemoryStore::address_of(const HardwareIdentity& hardware,
                                                 const EntryAddress& address) {
    return {hardware.key, address.tuner, address.checksum, address.key_json};
}

std::vector<std::string> InMemoryStore::keys(const HardwareIdentity& hardware,
                                             const std::string& tuner, std::uint64_t checksum) {
    std::lock_guard lock(mutex_);
    std::vector<std::string> found;
    for (const auto& [address, entry] : entries_) {
        if (std::get<0>(address) == hardware.key && std::get<1>(address) == tuner &&
            std::get<2>(address) == checksum) {
            found.push_back(std::get<3>(address));
        }
    }
    return found;
}

std::optional<TuneEntry> InMemoryStore::load(const HardwareIdentity& hardware,
                                             const EntryAddress& address) {
    std::lock_guard lock(mutex_);
    const auto found = entries_.find(address_of(hardware, address));
    if (found == entries_.end()) {
        return std::nullopt;
    }
    return found->second;
}

StoreOutcome InMemoryStore::save(const HardwareIdentity& hardware, const EntryAddress& address,
                                 const std::vector<CandidateDescription>& /*candidates*/,
                                 const std::string& /*key_display*/, const TuneEntry& entry) {
    std::lock_guard lock(mutex_);
    const auto [slot, inserted] = entries_.try_emplace(address_of(hardware, address), entry);
    if (inserted || slot->second.needs_retune) {
        slot->second = entry;
        return {true, std::nullopt, {}};
    }
    return {false, slot->second, "kept the entry settled first for this address"};
}

void InMemoryStore::mark_needs_retune(const HardwareIdentity& hardware,
                                      const EntryAddress& address) {
    std::lock_guard lock(mutex_);
    const auto found = entries_.find(address_of(hardware, address));
    if (found != entries_.end()) {
        found->second.needs_retune = true;
    }
}

std::size_t InMemoryStore::size() const {
    std::lock_guard lock(mutex_);
    return entries_.size();
}

}  // namespace spvtune::tune
