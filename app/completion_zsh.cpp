#include <sstream>

#include "completion_scripts.hpp"

namespace spvtune::app {
namespace {

/// `_spvtune_cache_show`: the completion function of a command.
std::string function_name(const CommandModel& command) {
    std::string name = "_spvtune";
    for (const std::string& word : command.path) {
        name += "_" + word;
    }
    for (char& c : name) {
        c = c == '-' ? '_' : c;
    }
    return name;
}

/// Text for inside a single-quoted word.
std::string in_single_quotes(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == '\'') {
            out += "'\\''";
        } else {
            out += c == '\n' ? ' ' : c;
        }
    }
    return out;
}

/// An option's description, for between the brackets of an _arguments spec.
std::string bracketed(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == '[' || c == ']' || c == '\\') {
            out += '\\';
        }
        out += c;
    }
    return in_single_quotes(out);
}

/// The message and action of a value: `:cache-dir:_files -/`.
std::string value_spec(const std::string& label, const ArgumentModel& argument) {
    std::string action;
    switch (argument.kind) {
        case ValueKind::file:
            action = "_files";
            break;
        case ValueKind::json_file:
            action = "_files -g \"*.json\"";
            break;
        case ValueKind::directory:
            action = "_files -/";
            break;
        case ValueKind::choice:
            for (const std::string& choice : argument.choices) {
                action += (action.empty() ? "(" : " ") + choice;
            }
            action += ")";
            break;
        case ValueKind::text:
        case ValueKind::number:
            action = " ";  // nothing to offer; zsh shows the message
            break;
    }
    return ":" + label + ":" + action;
}

std::string label_of(const std::string& name) {
    return name.substr(name.find_first_not_of('-'));
}

void option_specs(std::ostream& out, const CommandModel& command) {
    for (const ArgumentModel* option : command.options_in_force()) {
        std::string exclusions;
        if (option->names.size() > 1 && !option->repeatable) {
            for (const std::string& name : option->names) {
                exclusions += (exclusions.empty() ? "(" : " ") + name;
            }
            exclusions += ")";
        }
        for (const std::string& name : option->names) {
            const bool long_name = name.starts_with("--");
            out << " \\\n        '" << (option->repeatable ? "*" : exclusions) << name;
            if (option->takes_value) {
                out << (long_name ? "=" : "+");
            }
            out << "[" << bracketed(option->description) << "]";
            if (option->takes_value) {
                out << in_single_quotes(value_spec(label_of(option->names.back()), *option));
            }
            out << "'";
        }
    }
}

void write_function(std::ostream& out, const CommandModel& command) {
    for (const auto& subcommand : command.subcommands) {
        write_function(out, *subcommand);
    }
    out << function_name(command) << "() {\n";
    if (command.subcommands.empty()) {
        out << "    _arguments -s -S";
        option_specs(out, command);
        for (std::size_t i = 0; i < command.positionals.size(); ++i) {
            const ArgumentModel& positional = command.positionals[i];
            const bool rest = positional.repeatable && i + 1 == command.positionals.size();
            out << " \\\n        '"
                << (rest ? std::string("*")
                         : std::to_string(i + 1) + (positional.required ? "" : ":"))
                << in_single_quotes(value_spec(positional.names.front(), positional)) << "'";
        }
        out << "\n}\n\n";
        return;
    }
    out << "    local curcontext=\"$curcontext\" state state_descr line\n"
           "    typeset -A opt_args\n"
           "    _arguments -C -s -S";
    option_specs(out, command);
    out << " \\\n        '1: :->command' \\\n        '*:: :->argument'\n"
           "    case $state in\n"
           "        command)\n"
           "            local -a commands\n"
           "            commands=(\n";
    for (const auto& subcommand : command.subcommands) {
        out << "                '"
            << in_single_quotes(subcommand->path.back() + ":" + subcommand->description) << "'\n";
    }
    out << "            )\n"
           "            _describe -t commands '"
        << in_single_quotes(command.command_line()) << " command' commands ;;\n"
        << "        argument)\n"
           "            case $line[1] in\n";
    for (const auto& subcommand : command.subcommands) {
        out << "                " << subcommand->path.back() << ") " << function_name(*subcommand)
            << " ;;\n";
    }
    out << "            esac ;;\n"
           "    esac\n}\n\n";
}

}  // namespace

std::string zsh_completion_script(const CommandModel& root) {
    std::ostringstream out;
    out << "#compdef spvtune\n"
           "# zsh completion for spvtune, generated by `spvtune completion zsh` from its command "
           "definitions.\n"
           "# Install: spvtune completion zsh > \"${fpath[1]}/_spvtune\" (a directory of $fpath "
           "you can write),\n"
           "# or add `source <(spvtune completion zsh)` to ~/.zshrc after compinit.\n\n";
    write_function(out, root);
    // Autoloaded from $fpath, this file is _spvtune's body: define everything, then complete.
    // Sourced, it registers itself.
    out << "if [[ \"${funcstack[1]}\" == _spvtune ]]; then\n"
           "    _spvtune \"$@\"\n"
           "else\n"
           "    compdef _spvtune spvtune\n"
           "fi\n";
    return out.str();
}

}  // namespace spvtune::app
