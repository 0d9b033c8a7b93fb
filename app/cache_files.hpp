#pragma once

#include <filesystem>
#include <optional>
#include <vector>

#include <spvtune/cache/cache_document.hpp>

namespace spvtune::app {

/// Live cache files in a directory, by name; backups of corrupt files are listed separately.
struct DirectoryListing {
    std::vector<std::filesystem::path> caches;
    std::vector<std::filesystem::path> backups;
};

/// The directory's cache files; none when it does not exist. Throws std::system_error naming
/// the directory when it cannot be read (`cannot read directory D: Permission denied`).
DirectoryListing list_directory(const std::filesystem::path& directory);

/// The cache file's document; a reading error a user can fix (a missing file, invalid content)
/// is printed on stderr and gives nothing (a usage error, exit 2); anything else throws.
std::optional<cache::CacheDocument> read_or_report(const std::filesystem::path& file);

}  // namespace spvtune::app
