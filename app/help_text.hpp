#pragma once

#include <string>

namespace spvtune::app {

/// The exit codes of every command, as each command's --help ends with them. README.md's
/// "Exit codes" section holds the same text (a test compares them).
std::string exit_codes_help();

/// The environment variables spvtune reads, with their defaults, for --help.
std::string environment_help();

}  // namespace spvtune::app
