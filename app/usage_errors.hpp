#pragma once

#include <CLI/CLI.hpp>

namespace spvtune::app {

/// Reports a command-line parse error as users of git or cargo expect and returns the exit
/// code: an unknown option is named with a did-you-mean suggestion (edit distance, as problem
/// files get), whatever else went wrong after it; a command without its subcommand prints that
/// command's usage and says one is required; an unknown subcommand gets a suggestion too; a
/// missing path (PathError) is `spvtune: error: <path>: <reason>`, as every file error is;
/// everything else is CLI11's message in that style, and --help is CLI11's.
int report_parse_error(CLI::App& app, const CLI::ParseError& error);

}  // namespace spvtune::app
