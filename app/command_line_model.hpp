#pragma once

#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace spvtune::app {

// The command line as data, read from the CLI11 definitions, for what is generated from them:
// the shell completion scripts and the manual page. Nothing here is written by hand per
// command, so a new option reaches both without a second edit.

/// What a value on the command line is, from the option's CLI11 type name and validators
/// (`TEXT:FILE`, `JSON:FILE`, `DIR`, `TEXT:{auto,always,never}`, `INT`).
enum class ValueKind {
    text,       ///< free text: completes to nothing
    number,     ///< completes to nothing
    file,       ///< any file
    json_file,  ///< a JSON file (problems, reports): *.json
    directory,  ///< a directory
    choice,     ///< one of `choices`
};

/// An option or a positional argument.
struct ArgumentModel {
    /// An option's names as typed ("-q", "--quiet"); a positional's name ("problems").
    std::vector<std::string> names;
    std::string description;
    /// The type name as --help shows it ("TEXT:DIR"); empty for a flag.
    std::string type_name;
    ValueKind kind = ValueKind::text;
    std::vector<std::string> choices;
    bool takes_value = false;
    /// An option: it may be given again (`--key A --key B`); a positional: it takes several
    /// words.
    bool repeatable = false;
    /// An option that takes several words after one occurrence (`--problems A.json B.json`).
    bool takes_many = false;
    bool required = false;
};

/// One command: the root (an empty path) or a subcommand, with its visible subcommands.
struct CommandModel {
    std::vector<std::string> path;  ///< {"cache", "show"}; empty for spvtune itself
    std::string description;
    /// Its own options, --help included; a command also accepts its parents' options.
    std::vector<ArgumentModel> options;
    std::vector<ArgumentModel> positionals;
    /// Held by pointer, so that each one's `parent` stays where it is.
    std::vector<std::unique_ptr<CommandModel>> subcommands;
    const CommandModel* parent = nullptr;

    /// "cache show"; "" for spvtune itself.
    std::string path_text() const;
    /// "spvtune cache show".
    std::string command_line() const;
    /// Its options and those of its parents (`cache --cache-dir` applies to `cache show`),
    /// the nearest first.
    std::vector<const ArgumentModel*> options_in_force() const;
};

/// The command tree under `root`, hidden subcommands and options left out.
std::unique_ptr<const CommandModel> describe_command_line(const CLI::App& root);

/// Every command of the tree, parents before their subcommands.
std::vector<const CommandModel*> all_commands(const CommandModel& root);

}  // namespace spvtune::app
