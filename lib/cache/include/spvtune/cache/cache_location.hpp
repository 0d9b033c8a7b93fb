#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include <spvtune/tune/hardware_identity.hpp>

namespace spvtune::cache {

/// Everything that can name the cache directory, most specific first.
struct CacheDirectorySources {
    std::optional<std::filesystem::path> explicit_directory;  ///< e.g. --cache-dir
    std::optional<std::string> spvtune_cache_dir;             ///< $SPVTUNE_CACHE_DIR
    std::optional<std::string> xdg_cache_home;                ///< $XDG_CACHE_HOME
    std::optional<std::string> home;                          ///< $HOME
};

/// The sources as this process sees them: `explicit_directory` plus the environment.
CacheDirectorySources cache_directory_sources(
    std::optional<std::filesystem::path> explicit_directory = std::nullopt);

/// The explicit directory, else SPVTUNE_CACHE_DIR, else $XDG_CACHE_HOME/spvtune, else
/// $HOME/.cache/spvtune. Empty variables count as unset, and a relative XDG_CACHE_HOME is
/// ignored, as the XDG specification asks. Throws std::runtime_error when none applies.
/// The directory is not created here; stores create it on their first write.
std::filesystem::path choose_cache_directory(const CacheDirectorySources& sources);

/// The cache directory of this process: `explicit_directory` (e.g. --cache-dir) unless it is
/// empty, else the environment's, as choose_cache_directory picks it. Throws as it does.
std::filesystem::path resolve_cache_directory(const std::filesystem::path& explicit_directory = {});

/// The cache file's name for `hardware`: its identity key plus ".json". Throws
/// std::invalid_argument when the key is empty or could leave the directory ('/', "..").
std::string cache_file_name(const tune::HardwareIdentity& hardware);

}  // namespace spvtune::cache
