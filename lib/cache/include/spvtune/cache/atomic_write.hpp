#pragma once

#include <filesystem>
#include <string_view>

namespace spvtune::cache {

/// Replaces `target` with `content` so that a reader never sees a half-written file: a temporary
/// in the same directory, fsync, rename. For caches other than the cache file (which also
/// locks); the directory must exist. Throws std::system_error naming the path.
void write_file_atomically(const std::filesystem::path& target, std::string_view content);

}  // namespace spvtune::cache
