#include "usage_errors.hpp"

#include <algorithm>
#include <cctype>
#include <iostream>
#include <string>
#include <vector>

#include <spvtune/problem/suggest.hpp>

#include "command.hpp"
#include "path_options.hpp"

namespace spvtune::app {
namespace {

/// The deepest subcommand the parse reached.
CLI::App* deepest_command(CLI::App& app) {
    CLI::App* current = &app;
    for (std::vector<CLI::App*> parsed = current->get_subcommands(); !parsed.empty();
         parsed = current->get_subcommands()) {
        current = parsed.front();
    }
    return current;
}

/// "spvtune cache show": the command as the user typed it.
std::string command_path(const CLI::App* command) {
    std::string path;
    for (const CLI::App* node = command; node != nullptr; node = node->get_parent()) {
        path = node->get_parent() == nullptr ? "spvtune" + path : " " + node->get_name() + path;
    }
    return path;
}

std::vector<std::string> subcommand_names(const CLI::App& command) {
    std::vector<std::string> names;
    for (const CLI::App* subcommand : command.get_subcommands({})) {
        if (!subcommand->get_group().empty()) {  // hidden ones have an empty group
            names.push_back(subcommand->get_name());
        }
    }
    return names;
}

/// The option names `command` itself defines: `--name` and `-x`.
std::vector<std::string> own_option_names(const CLI::App& command) {
    std::vector<std::string> names;
    for (const CLI::Option* option : command.get_options()) {
        for (const std::string& name : option->get_lnames()) {
            names.push_back("--" + name);
        }
        for (const std::string& name : option->get_snames()) {
            names.push_back("-" + name);
        }
    }
    return names;
}

/// The long option names a command accepts, its parents' included (`cache --cache-dir`): the
/// ones worth suggesting, since one letter is too little to guess from.
std::vector<std::string> long_option_names(const CLI::App* command) {
    std::vector<std::string> names;
    for (const CLI::App* node = command; node != nullptr; node = node->get_parent()) {
        for (const std::string& name : own_option_names(*node)) {
            if (name.starts_with("--")) {
                names.push_back(name);
            }
        }
    }
    return names;
}

std::string suggestion(const std::string& wrong, const std::vector<std::string>& names) {
    const auto close = problem::did_you_mean(wrong, names);
    return close ? "; did you mean '" + *close + "'?" : "";
}

std::string joined(const std::vector<std::string>& names) {
    std::string text;
    for (const std::string& name : names) {
        text += (text.empty() ? "" : ", ") + name;
    }
    return text;
}

/// `--name`, `--name=value` or `-x`; not `-1` (a negative number) nor `-` (stdin).
bool looks_like_option(const std::string& word) {
    const std::size_t first = word.starts_with("--") ? 2 : 1;
    return word.size() > first && word[0] == '-' &&
           std::isalpha(static_cast<unsigned char>(word[first])) != 0;
}

void report_unknown_option(const CLI::App& command, const std::string& name) {
    const std::string path = command_path(&command);
    const std::vector<std::string> own = own_option_names(command);
    // The command would have taken its own option after its name, so this one came before it.
    if (command.get_parent() != nullptr && std::find(own.begin(), own.end(), name) != own.end()) {
        std::cerr << "spvtune: error: '" << name << "' is an option of " << path
                  << ": write it after '" << command.get_name() << "'\n";
        return;
    }
    std::cerr << "spvtune: error: " << path << " has no option '" << name << "'"
              << suggestion(name, long_option_names(&command)) << "\nRun '" << path
              << " --help' for its options.\n";
}

}  // namespace

int report_parse_error(CLI::App& app, const CLI::ParseError& error) {
    if (error.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) {
        app.exit(error);  // --help, --version
        return exit_success;
    }
    CLI::App* command = deepest_command(app);
    // With fallthrough, what a subcommand does not take is left with its parents.
    std::vector<std::string> left;
    for (const CLI::App* node = command; node != nullptr; node = node->get_parent()) {
        const std::vector<std::string> words = node->remaining();
        left.insert(left.end(), words.begin(), words.end());
    }
    const std::string path = command_path(command);
    // An unknown option comes first whatever error the parse ended with: the value after it
    // went to a positional, whose check then fails on it (`--samplse 5`: "no such file: 5").
    for (const std::string& word : left) {
        if (looks_like_option(word)) {
            report_unknown_option(*command, word.substr(0, word.find('=')));
            return exit_usage;
        }
    }
    if (dynamic_cast<const CLI::RequiredError*>(&error) != nullptr &&
        !subcommand_names(*command).empty() && command->get_subcommands().empty()) {
        for (const std::string& word : left) {
            if (word.starts_with("-")) {
                continue;
            }
            std::cerr << "spvtune: error: '" << word << "' is not a " << path << " command"
                      << suggestion(word, subcommand_names(*command)) << "\nRun '" << path
                      << " --help' for the list of commands.\n";
            return exit_usage;
        }
        std::cerr << command->help() << "spvtune: error: "
                  << (command->get_parent() == nullptr ? "a command is required"
                                                       : "'" + path + "' needs a command")
                  << " (one of: " << joined(subcommand_names(*command)) << ")\n";
        return exit_usage;
    }
    if (dynamic_cast<const PathError*>(&error) != nullptr) {
        std::cerr << "spvtune: error: " << error.what() << '\n';  // already `<path>: <reason>`
        return exit_usage;
    }
    std::cerr << "spvtune: error: " << error.what() << "\nRun '" << path
              << " --help' for its usage.\n";
    return exit_usage;
}

}  // namespace spvtune::app
