#pragma once

#include <string>

namespace spvtune::app {

/// The exit codes of every command, as each command's --help ends with them. README.md's
/// "Exit codes" section holds the same text (a test compares them).
std::string exit_codes_help();

/// The environment variables every command reads, with their defaults, for --help.
std::string environment_help();

/// The lines of environment_help() that only tune reads: the default of --build-threads and the
/// array jobs' variables that choose the shard without --shard.
std::string tune_environment_help();

/// What a command's --help ends with: the environment, `more_environment` lines added to it,
/// and the exit codes.
std::string footer_help(const std::string& more_environment = "");

}  // namespace spvtune::app
