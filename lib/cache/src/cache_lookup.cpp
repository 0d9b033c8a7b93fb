#include <algorithm>
#include <exception>
#include <vector>

#include <spvtune/cache/cache_file.hpp>
#include <spvtune/cache/cache_location.hpp>
#include <spvtune/cache/cache_lookup.hpp>

namespace spvtune::cache {
namespace {

namespace fs = std::filesystem;

// A file that cannot be used is a reason to look further, not to fail the caller's run.
std::optional<CacheDocument> try_read(const fs::path& file, const WarningSink& warn) {
    try {
        return read_cache_file(file);
    } catch (const std::system_error& error) {
        if (error.code() != std::errc::no_such_file_or_directory) {
            warn("skipping cache " + file.string() + ": " + error.what());
        }
    } catch (const std::exception& error) {
        warn("skipping cache " + file.string() + ": " + error.what());
    }
    return std::nullopt;
}

std::vector<fs::path> cache_files_in(const fs::path& directory) {
    std::vector<fs::path> files;
    std::error_code error;
    for (fs::directory_iterator it(directory, error), end; !error && it != end;
         it.increment(error)) {
        const fs::path& path = it->path();
        if (path.extension() == ".json" && !is_cache_backup_name(path) &&
            it->is_regular_file(error)) {
            files.push_back(path);
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

}  // namespace

std::optional<CacheLookup> find_cache_file(const fs::path& directory,
                                           const tune::HardwareIdentity& hardware,
                                           DriverMismatch policy, const WarningSink& warn) {
    const fs::path exact_file = directory / cache_file_name(hardware);
    auto exact = try_read(exact_file, warn);
    if (exact && exact->hardware == hardware) {
        return CacheLookup{exact_file, CacheMatch::exact, std::move(exact->hardware),
                           "exact match"};
    }
    if (policy == DriverMismatch::refuse) {
        return std::nullopt;
    }
    for (const fs::path& file : cache_files_in(directory)) {
        // Already read (and warned about) above; a copy renamed to this name still counts below.
        auto document = file == exact_file ? std::move(exact) : try_read(file, warn);
        if (!document) {
            continue;
        }
        const tune::HardwareIdentity& other = document->hardware;
        if (other.vendor_id == hardware.vendor_id && other.device_id == hardware.device_id &&
            other.driver_version != hardware.driver_version) {
            std::string description = "driver mismatch: tuned with driver " + other.driver_version +
                                      ", running driver " + hardware.driver_version;
            return CacheLookup{file, CacheMatch::driver_mismatch, std::move(document->hardware),
                               std::move(description)};
        }
    }
    return std::nullopt;
}

}  // namespace spvtune::cache
