#pragma once

#include <filesystem>
#include <string_view>

// Writing a file the user named (a report, an export): never damage what is at the path.
namespace spvtune::base {

/// The file a write to `path` must change: `path` itself, or where its chain of symbolic links
/// ends (relative links resolved against the link's directory), whether or not that exists.
/// Throws std::system_error for a loop of links or one that cannot be read.
std::filesystem::path output_target(const std::filesystem::path& path);

/// Writes `content` to `path` without damaging what is there:
/// - `-` is standard output;
/// - a regular file (or none yet) is replaced atomically: a temporary in the same directory,
///   renamed over it, so a reader never sees half a file; an existing file keeps its mode;
/// - through a symbolic link, the file it points to is written and the link stays;
/// - anything else (a device such as /dev/null, a FIFO) is written to directly, never replaced.
/// Throws std::system_error naming the path and the reason.
void write_output_file(const std::filesystem::path& path, std::string_view content);

}  // namespace spvtune::base
