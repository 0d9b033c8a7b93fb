#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include <spvtune/cache/cache_warning.hpp>
#include <spvtune/tune/hardware_identity.hpp>

namespace spvtune::cache {

/// Whether a cache made with another driver version of the same device may be used.
enum class DriverMismatch { refuse, allow };

enum class CacheMatch {
    exact,            ///< the file is for exactly this hardware identity
    driver_mismatch,  ///< same vendor and device, another driver version
};

/// A cache file found for some hardware in a directory of (typically shipped) caches.
struct CacheLookup {
    std::filesystem::path file;
    CacheMatch match = CacheMatch::exact;
    /// The identity recorded in the file (for a driver mismatch, the driver it was tuned with).
    tune::HardwareIdentity file_hardware;
    /// For the user: "exact match" or "driver mismatch: tuned with driver X, running Y".
    std::string description;
};

/// Finds the cache file for `hardware` in `directory`: the file named after its identity key
/// when the file agrees it is for that key; failing that, and only when `policy` allows, a
/// file for the same vendor and device id made with another driver version (the first such
/// file by name). Anything else is a miss. Files that cannot be read or are not valid caches
/// are skipped with a warning through `warn`; this never modifies the directory.
std::optional<CacheLookup> find_cache_file(const std::filesystem::path& directory,
                                           const tune::HardwareIdentity& hardware,
                                           DriverMismatch policy,
                                           const WarningSink& warn = warn_to_stderr);

}  // namespace spvtune::cache
