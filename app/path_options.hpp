#pragma once

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace spvtune::app {

// The validators' names (FILE, DIR) show in --help and tell the completion scripts what to
// offer (command_line_model.hpp).
// An empty path on the command line is a slip (an unset shell variable), never a choice: an
// empty --cache-dir would fall back to the home cache, an empty --json would be dropped.

/// A path to a file that is to be written: not empty.
CLI::Validator file_path();

/// A directory: not empty, and a directory where something is there already.
CLI::Validator directory_path();

/// What a path named on the command line must be.
enum class PathKind { file, directory, file_or_directory };

/// Why `path` is not there as `kind` ("no such file", "is a directory, not a file", or what the
/// system says, such as "permission denied"), or nothing when it is. Anything but a directory
/// counts as a file: a FIFO or a device is for the reader of the file to refuse.
std::optional<std::string> path_fault(const std::string& path, PathKind kind);

/// A path named on the command line that is not there as expected. Reported as every file error
/// is, `spvtune: error: <path>: <reason>`, not as CLI11 reports a failed check
/// (`problems: File does not exist: <path>`): so it is a ParseError but not a ValidationError,
/// which CLI11 would catch to prefix the option's name.
class PathError : public CLI::ParseError {
  public:
    PathError(const std::string& path, const std::string& reason);
};

/// Checks that a path is there as `kind`, else throws PathError. Named FILE, DIR or PATH, as
/// CLI11's ExistingFile, ExistingDirectory and ExistingPath are.
CLI::Validator existing(PathKind kind);

/// Adds `--cache-dir DIR` (checked with directory_path()), described as `what` followed by the
/// default every command shares: $SPVTUNE_CACHE_DIR, else the XDG cache directory.
void add_cache_dir_option(CLI::App& command, std::string& cache_dir, const std::string& what);

/// Adds `--kernel-dir DIR` (repeatable, one value per occurrence so that files after it stay
/// files): where the commands that load problem files look for SPIR-V and GLSL files.
void add_kernel_dir_option(CLI::App& command, std::vector<std::string>& kernel_dirs);

}  // namespace spvtune::app
