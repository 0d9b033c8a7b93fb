#include "usage_errors.hpp"

#include <iostream>
#include <string>
#include <vector>

#include <spvtune/problem/suggest.hpp>

#include "command.hpp"

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

/// The long option names a command accepts, its parents' included (`cache --cache-dir`).
std::vector<std::string> option_names(const CLI::App* command) {
    std::vector<std::string> names;
    for (const CLI::App* node = command; node != nullptr; node = node->get_parent()) {
        for (const CLI::Option* option : node->get_options()) {
            for (const std::string& name : option->get_lnames()) {
                names.push_back("--" + name);
            }
        }
    }
    return names;
}

std::string suggestion(const std::string& wrong, const std::vector<std::string>& names) {
    const auto close = problem::did_you_mean(wrong, names);
    return close ? "; did you mean '" + *close + "'?" : "";
}

}  // namespace

int report_parse_error(CLI::App& app, const CLI::ParseError& error) {
    CLI::App* command = deepest_command(app);
    // With fallthrough, what a subcommand does not take is left with its parents.
    std::vector<std::string> left;
    for (const CLI::App* node = command; node != nullptr; node = node->get_parent()) {
        const std::vector<std::string> words = node->remaining();
        left.insert(left.end(), words.begin(), words.end());
    }
    const std::string path = command_path(command);
    if (dynamic_cast<const CLI::RequiredError*>(&error) != nullptr &&
        !subcommand_names(*command).empty() && command->get_subcommands().empty()) {
        for (const std::string& word : left) {
            if (!word.starts_with("-")) {
                std::cerr << "spvtune: error: '" << word << "' is not a " << path << " command"
                          << suggestion(word, subcommand_names(*command)) << "\nRun '" << path
                          << " --help' for the list of commands.\n";
                return exit_usage;
            }
        }
        std::cerr << command->help();
        return exit_usage;
    }
    if (dynamic_cast<const CLI::ExtrasError*>(&error) != nullptr) {
        for (const std::string& word : left) {
            if (word.starts_with("--")) {
                const std::string name = word.substr(0, word.find('='));
                std::cerr << "spvtune: error: " << path << " has no option '" << name << "'"
                          << suggestion(name, option_names(command)) << "\nRun '" << path
                          << " --help' for its options.\n";
                return exit_usage;
            }
        }
    }
    const int code = app.exit(error);
    return code == 0 ? exit_success : exit_usage;
}

}  // namespace spvtune::app
