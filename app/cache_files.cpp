#include "cache_files.hpp"

#include <algorithm>
#include <iostream>
#include <system_error>

#include <spvtune/base/posix_file.hpp>
#include <spvtune/cache/cache_file.hpp>
#include <spvtune/cache/cache_format.hpp>

#include "activity.hpp"

namespace spvtune::app {

namespace fs = std::filesystem;

DirectoryListing list_directory(const fs::path& directory) {
    DirectoryListing listing;
    std::error_code error;
    for (fs::directory_iterator it(directory, error), end; !error && it != end;
         it.increment(error)) {
        const fs::path& path = it->path();
        std::error_code entry_error;
        if (path.extension() != ".json" || !it->is_regular_file(entry_error)) {
            continue;
        }
        (cache::is_cache_backup_name(path) ? listing.backups : listing.caches).push_back(path);
    }
    // A directory that does not exist yet holds no cache files; one that cannot be read may
    // hold any number, so calling it empty would merge, diff or clean up the wrong thing.
    if (error && error != std::errc::no_such_file_or_directory) {
        base::throw_errno(error.value(), "cannot read directory", directory);
    }
    std::sort(listing.caches.begin(), listing.caches.end());
    std::sort(listing.backups.begin(), listing.backups.end());
    return listing;
}

std::optional<cache::CacheDocument> read_or_report(const fs::path& file) {
    try {
        return while_doing("reading the cache file " + file.string(),
                           [&] { return cache::read_cache_file(file); });
    } catch (const cache::CacheFormatError& error) {
        std::cerr << "spvtune: error: " << error.what() << '\n';
    } catch (const std::system_error& error) {
        if (error.code() != std::errc::no_such_file_or_directory) {
            throw;
        }
        std::cerr << "spvtune: error: " << file.string() << ": no such cache file\n";
    }
    return std::nullopt;
}

}  // namespace spvtune::app
