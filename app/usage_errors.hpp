#pragma once

#include <CLI/CLI.hpp>

namespace spvtune::app {

/// Reports a command-line parse error as users of git or cargo expect and returns the exit
/// code: a command without its subcommand prints that command's usage; an unknown subcommand
/// or option is named with a did-you-mean suggestion (edit distance, as problem files get);
/// everything else, and --help, as CLI11 reports it.
int report_parse_error(CLI::App& app, const CLI::ParseError& error);

}  // namespace spvtune::app
