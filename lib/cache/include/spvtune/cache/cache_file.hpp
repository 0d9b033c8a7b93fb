#pragma once

#include <filesystem>
#include <functional>

#include <spvtune/base/regular_file.hpp>
#include <spvtune/cache/cache_document.hpp>

namespace spvtune::cache {

/// Reads and validates one cache file, with the entries its journal ("<file>.journal", see
/// docs/cache-format.md) adds that a full write has not folded in yet. Throws std::system_error
/// naming the file when it cannot be read (including when it does not exist) and CacheFormatError
/// when it is not a valid cache. With LinkPolicy::refuse a symbolic link at `file` is an error
/// (std::system_error, ELOOP) naming it, as one at its journal always is.
CacheDocument read_cache_file(const std::filesystem::path& file,
                              base::LinkPolicy links = base::LinkPolicy::follow);

/// Edits an existing cache file safely: under the file's advisory lock, reads it (with its
/// journal), applies `edit`, and, when `edit` returns true, replaces the file atomically with
/// the journal folded in, and removes the journal. A corrupt file or one
/// from a newer schema version is never rewritten: CacheFormatError is thrown and the file is
/// left as it is. Returns whether the file was rewritten.
bool edit_cache_file(const std::filesystem::path& file,
                     const std::function<bool(CacheDocument&)>& edit);

/// Folds the file's journal into it (a full write, as edit_cache_file does), so the file alone
/// holds every entry: for shipping, or for readers of schema version 1. Returns false when there
/// was no journal. Throws as edit_cache_file does.
bool compact_cache_file(const std::filesystem::path& file);

/// True for the backups the store makes of files it could not use ("<stem>.corrupt-<time>.json"),
/// so directory listings can tell them from live cache files.
bool is_cache_backup_name(const std::filesystem::path& file);

}  // namespace spvtune::cache
