#pragma once

#include <CLI/CLI.hpp>

namespace spvtune::app {

// An empty path on the command line is a slip (an unset shell variable), never a choice: an
// empty --cache-dir would fall back to the home cache, an empty --json would be dropped.

/// A path to a file that is to be written: not empty.
CLI::Validator file_path();

/// A directory: not empty, and a directory where something is there already.
CLI::Validator directory_path();

}  // namespace spvtune::app
