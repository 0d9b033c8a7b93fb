#include "command_line_model.hpp"

#include <algorithm>
#include <array>
#include <string_view>

namespace spvtune::app {
namespace {

std::vector<std::string> split(const std::string& text, char separator) {
    std::vector<std::string> parts;
    std::string::size_type start = 0;
    for (auto end = text.find(separator); end != std::string::npos;
         end = text.find(separator, start)) {
        parts.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    parts.push_back(text.substr(start));
    return parts;
}

/// The kind of value a CLI11 type name describes: its base type and each validator's
/// description, joined by ':' (`JSON:FILE`, `TEXT:{auto,always,never}`).
void read_value_kind(const std::string& type_name, ArgumentModel& argument) {
    static constexpr std::array<std::string_view, 4> numbers{"INT", "UINT", "FLOAT", "NUMBER"};
    const std::vector<std::string> parts = split(type_name, ':');
    auto has = [&](std::string_view part) {
        return std::find(parts.begin(), parts.end(), part) != parts.end();
    };
    if (has("JSON")) {
        argument.kind = ValueKind::json_file;
    } else if (has("FILE") || has("PATH")) {
        argument.kind = ValueKind::file;
    } else if (has("DIR")) {
        argument.kind = ValueKind::directory;
    } else if (std::find(numbers.begin(), numbers.end(), parts.front()) != numbers.end()) {
        argument.kind = ValueKind::number;
    }
    for (const std::string& part : parts) {
        // CLI::IsMember describes itself as `{a,b,c}`.
        if (part.size() > 2 && part.front() == '{' && part.back() == '}') {
            argument.kind = ValueKind::choice;
            argument.choices = split(part.substr(1, part.size() - 2), ',');
        }
    }
}

ArgumentModel describe_option(const CLI::Option& option) {
    ArgumentModel argument;
    argument.description = option.get_description();
    argument.required = option.get_required();
    argument.takes_value = option.get_items_expected_max() > 0;
    if (option.nonpositional()) {
        for (const std::string& name : option.get_snames()) {
            argument.names.push_back("-" + name);
        }
        for (const std::string& name : option.get_lnames()) {
            argument.names.push_back("--" + name);
        }
        // A vector takes one value per occurrence (allow_extra_args(false)) or several.
        argument.repeatable = argument.takes_value && (option.get_multi_option_policy() ==
                                                           CLI::MultiOptionPolicy::TakeAll ||
                                                       option.get_items_expected_max() > 1);
        argument.takes_many = option.get_items_expected_max() > 1 && option.get_allow_extra_args();
    } else {
        argument.names.push_back(option.get_name(true));
        argument.repeatable = option.get_items_expected_max() > 1;
    }
    if (argument.takes_value) {
        argument.type_name = option.get_type_name();
        read_value_kind(argument.type_name, argument);
    }
    return argument;
}

void describe(const CLI::App& app, CommandModel& model) {
    model.description = app.get_description();
    for (const CLI::Option* option : app.get_options()) {
        if (option->get_group().empty()) {
            continue;  // hidden
        }
        (option->nonpositional() ? model.options : model.positionals)
            .push_back(describe_option(*option));
    }
    for (const CLI::App* subcommand : app.get_subcommands({})) {
        if (subcommand->get_group().empty()) {
            continue;  // hidden, as the worker
        }
        auto child = std::make_unique<CommandModel>();
        child->path = model.path;
        child->path.push_back(subcommand->get_name());
        child->parent = &model;
        describe(*subcommand, *child);
        model.subcommands.push_back(std::move(child));
    }
}

void collect(const CommandModel& command, std::vector<const CommandModel*>& out) {
    out.push_back(&command);
    for (const auto& subcommand : command.subcommands) {
        collect(*subcommand, out);
    }
}

}  // namespace

std::string CommandModel::path_text() const {
    std::string text;
    for (const std::string& word : path) {
        text += (text.empty() ? "" : " ") + word;
    }
    return text;
}

std::string CommandModel::command_line() const {
    return path.empty() ? "spvtune" : "spvtune " + path_text();
}

std::vector<const ArgumentModel*> CommandModel::options_in_force() const {
    std::vector<const ArgumentModel*> options;
    for (const CommandModel* command = this; command != nullptr; command = command->parent) {
        for (const ArgumentModel& option : command->options) {
            // A subcommand's own --help shadows its parents'.
            const bool shadowed = std::any_of(
                options.begin(), options.end(),
                [&](const ArgumentModel* known) { return known->names == option.names; });
            if (!shadowed) {
                options.push_back(&option);
            }
        }
    }
    return options;
}

std::unique_ptr<const CommandModel> describe_command_line(const CLI::App& root) {
    auto model = std::make_unique<CommandModel>();
    describe(root, *model);
    return model;
}

std::vector<const CommandModel*> all_commands(const CommandModel& root) {
    std::vector<const CommandModel*> commands;
    collect(root, commands);
    return commands;
}

}  // namespace spvtune::app
