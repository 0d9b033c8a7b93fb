#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

namespace spvtune::tune {

/// The hardware a tuning result is valid for, as far as the tuner needs to know it.
///
/// Two device handles with equal `key` share tuning results: the key is the backend's stable
/// identity string (readable name plus a hash of every field that makes timings non-portable),
/// and it doubles as the cache file name. The remaining fields let a shipped cache be matched
/// loosely (same vendor and device, another driver) when the caller allows it.
struct HardwareIdentity {
    /// Stable, file-name-safe identity string; equality and hashing use this alone.
    std::string key;
    std::uint32_t vendor_id = 0;
    std::uint32_t device_id = 0;
    std::string device_name;
    /// Driver version as the vendor spells it (e.g. "535.104.5" for NVIDIA).
    std::string driver_version;
    /// Every identity field the backend knows, stored verbatim in cache files.
    nlohmann::json record = nlohmann::json::object();

    friend bool operator==(const HardwareIdentity& a, const HardwareIdentity& b) {
        return a.key == b.key;
    }
};

}  // namespace spvtune::tune

template <>
struct std::hash<spvtune::tune::HardwareIdentity> {
    std::size_t operator()(const spvtune::tune::HardwareIdentity& identity) const noexcept {
        return std::hash<std::string>{}(identity.key);
    }
};
