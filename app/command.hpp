#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace spvtune::app {

/// Exit codes shared by every subcommand; help_text.cpp explains them to users.
enum ExitCode : int {
    exit_success = 0,
    exit_failure = 1,        ///< the job ran but something in it failed (a key, a file)
    exit_usage = 2,          ///< bad usage or invalid input file
    exit_interrupted = 130,  ///< tune stopped by SIGINT, as a shell reports 128 + 2
};

/// A subcommand registers its options on `parent` and returns the action to run when it is
/// chosen. The action returns the process exit code; errors it throws are reported by main.
using CommandAction = std::function<int()>;

CommandAction register_devices_command(CLI::App& parent);
CommandAction register_cache_command(CLI::App& parent);
CommandAction register_check_command(CLI::App& parent);
CommandAction register_compare_command(CLI::App& parent);
CommandAction register_tune_command(CLI::App& parent);
CommandAction register_report_command(CLI::App& parent);
CommandAction register_replay_command(CLI::App& parent);
CommandAction register_show_output_command(CLI::App& parent);
CommandAction register_worker_command(CLI::App& parent);
/// `completion SHELL`: a completion script generated from `parent`'s command tree.
CommandAction register_completion_command(CLI::App& parent);
/// Hidden `manual-page`: the troff manual page generated from `parent`'s command tree.
CommandAction register_manual_page_command(CLI::App& parent);

}  // namespace spvtune::app
