#pragma once

#include <filesystem>
#include <functional>

#include <spvtune/cache/cache_document.hpp>

namespace spvtune::cache {

/// Reads and validates one cache file. Throws std::system_error naming the file when it cannot
/// be read (including when it does not exist) and CacheFormatError when it is not a valid cache.
CacheDocument read_cache_file(const std::filesystem::path& file);

/// Edits an existing cache file safely: under the file's advisory lock, reads it, applies
/// `edit`, and, when `edit` returns true, replaces the file atomically. A corrupt file or one
/// from a newer schema version is never rewritten: CacheFormatError is thrown and the file is
/// left as it is. Returns whether the file was rewritten.
bool edit_cache_file(const std::filesystem::path& file,
                     const std::function<bool(CacheDocument&)>& edit);

/// True for the backups the store makes of files it could not use ("<stem>.corrupt-<time>.json"),
/// so directory listings can tell them from live cache files.
bool is_cache_backup_name(const std::filesystem::path& file);

}  // namespace spvtune::cache
