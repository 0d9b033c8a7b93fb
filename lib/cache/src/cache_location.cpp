#include <cstdlib>
#include <stdexcept>

#include <spvtune/cache/cache_location.hpp>

namespace spvtune::cache {
namespace {

std::optional<std::string> environment(const char* name) {
    const char* value = std::getenv(name);
    if (value == nullptr || *value == '\0') {
        return std::nullopt;
    }
    return std::string(value);
}

}  // namespace

CacheDirectorySources cache_directory_sources(
    std::optional<std::filesystem::path> explicit_directory) {
    return CacheDirectorySources{std::move(explicit_directory), environment("SPVTUNE_CACHE_DIR"),
                                 environment("XDG_CACHE_HOME"), environment("HOME")};
}

std::filesystem::path choose_cache_directory(const CacheDirectorySources& sources) {
    if (sources.explicit_directory && !sources.explicit_directory->empty()) {
        return *sources.explicit_directory;
    }
    if (sources.spvtune_cache_dir && !sources.spvtune_cache_dir->empty()) {
        return *sources.spvtune_cache_dir;
    }
    if (sources.xdg_cache_home && std::filesystem::path(*sources.xdg_cache_home).is_absolute()) {
        return std::filesystem::path(*sources.xdg_cache_home) / "spvtune";
    }
    if (sources.home && !sources.home->empty()) {
        return std::filesystem::path(*sources.home) / ".cache" / "spvtune";
    }
    throw std::runtime_error(
        "cannot choose a cache directory: HOME is not set; use --cache-dir or set "
        "SPVTUNE_CACHE_DIR");
}

std::filesystem::path resolve_cache_directory(const std::filesystem::path& explicit_directory) {
    return choose_cache_directory(cache_directory_sources(
        explicit_directory.empty() ? std::nullopt
                                   : std::optional<std::filesystem::path>(explicit_directory)));
}

std::string cache_file_name(const tune::HardwareIdentity& hardware) {
    const std::string& key = hardware.key;
    if (key.empty() || key == "." || key == ".." || key.find('/') != std::string::npos ||
        key.find('\0') != std::string::npos) {
        throw std::invalid_argument("hardware identity key \"" + key +
                                    "\" cannot name a cache file");
    }
    return key + ".json";
}

}  // namespace spvtune::cache
