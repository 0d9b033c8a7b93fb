#pragma once

// Readers of what users are told about the command line: `spvtune ... --help` and the command
// table of README.md, so tests can hold one against the other.

#include <set>
#include <string>
#include <vector>

namespace spvtune::test {

struct Positional {
    std::string name;
    bool required = false;
    bool repeated = false;  ///< `FILES...`: one or more
};

/// What one command's --help lists.
struct HelpListing {
    /// Each option's names ("-q", "--quiet"), --help left out.
    std::vector<std::set<std::string>> options;
    std::vector<Positional> positionals;
    /// The positionals as the "Usage:" line shows them: one per word (`old new`, `files
    /// [files]`, `problems...`), so a positional taking two values shows twice.
    std::vector<Positional> usage;
    std::vector<std::string> subcommands;
    /// From the "Exit codes:" line to the end, without the trailing blank lines.
    std::string exit_codes;
};

HelpListing parse_help(const std::string& help);

/// One row of README.md's command table: `spvtune cache clear [FILE] [--tuner T] ...`.
struct DocumentedCommand {
    std::vector<std::string> path;        ///< {"cache", "clear"}
    std::set<std::string> options;        ///< every option name written in the row
    std::vector<Positional> positionals;  ///< as the usage line's (`FILE [FILE]`, `SOURCES...`)
};

/// The rows of the Markdown table whose first cell is a code span starting with `spvtune `.
std::vector<DocumentedCommand> parse_command_table(const std::string& markdown);

}  // namespace spvtune::test
