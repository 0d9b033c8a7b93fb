#pragma once

#include <string>

#include "command_line_model.hpp"

namespace spvtune::app {

// Completion scripts generated from the command line's definitions (command_line_model.hpp):
// subcommands, options (with or without a value), and values by kind: problem files and
// reports complete to *.json, directories to directories, choices to their words.

/// For bash: defines `_spvtune` and registers it with `complete -F`.
std::string bash_completion_script(const CommandModel& root);

/// For zsh (`#compdef spvtune`): works from a directory of $fpath, or sourced after compinit.
std::string zsh_completion_script(const CommandModel& root);

/// For fish: `complete` rules conditioned on the subcommand being completed.
std::string fish_completion_script(const CommandModel& root);

}  // namespace spvtune::app
