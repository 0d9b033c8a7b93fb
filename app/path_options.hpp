#pragma once

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

/// Adds `--kernel-dir DIR` (repeatable, one value per occurrence so that files after it stay
/// files): where the commands that load problem files look for SPIR-V and GLSL files.
void add_kernel_dir_option(CLI::App& command, std::vector<std::string>& kernel_dirs);

}  // namespace spvtune::app
