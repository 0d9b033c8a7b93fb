#include <sstream>

#include "completion_scripts.hpp"

namespace spvtune::app {
namespace {

std::string words(const std::vector<std::string>& list) {
    std::string text;
    for (const std::string& word : list) {
        text += (text.empty() ? "" : " ") + word;
    }
    return text;
}

/// How _spvtune_value completes a value of this kind.
std::string kind_word(const ArgumentModel& argument) {
    switch (argument.kind) {
        case ValueKind::file:
            return "file";
        case ValueKind::json_file:
            return "json";
        case ValueKind::directory:
            return "directory";
        case ValueKind::choice:
            return "choice:" + words(argument.choices);
        case ValueKind::text:
        case ValueKind::number:
            break;
    }
    return "none";
}

/// A `case` over the commands: each command's line of words.
template <typename Words>
void case_function(std::ostream& out, const std::string& name, const std::string& comment,
                   const std::vector<const CommandModel*>& commands, Words words_of) {
    out << "# " << comment << "\n" << name << "() {\n    case \"$1\" in\n";
    for (const CommandModel* command : commands) {
        const std::string line = words_of(*command);
        if (!line.empty()) {
            out << "        \"" << command->path_text() << "\") echo \"" << line << "\" ;;\n";
        }
    }
    out << "    esac\n}\n\n";
}

void option_kinds(std::ostream& out, const std::vector<const CommandModel*>& commands) {
    out << "# $1: a command path, $2: one of its options that takes a value; prints the value's "
           "kind.\n_spvtune_option_kind() {\n    case \"$1|$2\" in\n";
    for (const CommandModel* command : commands) {
        for (const ArgumentModel* option : command->options_in_force()) {
            if (!option->takes_value) {
                continue;
            }
            out << "        ";
            for (std::size_t i = 0; i < option->names.size(); ++i) {
                out << (i == 0 ? "" : "|") << '"' << command->path_text() << '|' << option->names[i]
                    << '"';
            }
            out << ") echo \"" << kind_word(*option) << "\" ;;\n";
        }
    }
    out << "    esac\n}\n\n";
}

void positional_kinds(std::ostream& out, const std::vector<const CommandModel*>& commands) {
    out << "# $1: a command path, $2: how many positional arguments precede; prints the next "
           "one's kind.\n_spvtune_positional_kind() {\n    case \"$1\" in\n";
    for (const CommandModel* command : commands) {
        if (command->positionals.empty()) {
            continue;
        }
        out << "        \"" << command->path_text() << "\")\n            case \"$2\" in\n";
        for (std::size_t i = 0; i < command->positionals.size(); ++i) {
            const ArgumentModel& positional = command->positionals[i];
            // The last positional, when it takes several words, takes every one after.
            const bool rest = positional.repeatable && i + 1 == command->positionals.size();
            out << "                " << (rest ? std::string("*") : std::to_string(i))
                << ") echo \"" << kind_word(positional) << "\" ;;\n";
        }
        out << "            esac ;;\n";
    }
    out << "    esac\n}\n\n";
}

// The fixed part: walks the words before the cursor to find the command path, the option
// waiting for its value and the positionals given, then completes by kind. Bash splits
// `--color=al` into `--color`, `=`, `al` (COMP_WORDBREAKS), so `=` is taken as part of the
// option's value.
constexpr const char* completion_function =
    R"bash(# $1: a value's kind, $2: the word typed so far, $3: what each completion must start with.
_spvtune_value() {
    local IFS=$'\n'
    case "$1" in
        file)
            compopt -o filenames 2>/dev/null
            COMPREPLY=($(compgen -f -- "$2")) ;;
        directory)
            compopt -o filenames 2>/dev/null
            COMPREPLY=($(compgen -d -- "$2")) ;;
        json)
            compopt -o filenames 2>/dev/null
            COMPREPLY=($(compgen -d -- "$2") $(compgen -f -X '!*.json' -- "$2")) ;;
        choice:*)
            IFS=' '
            COMPREPLY=($(compgen -W "${1#choice:}" -- "$2")) ;;
        *)
            COMPREPLY=() ;;
    esac
    if [[ -n "$3" ]]; then
        COMPREPLY=("${COMPREPLY[@]/#/$3}")
    fi
}

# $1: a word, then the words to look for it in.
_spvtune_among() {
    local word="$1" known
    shift
    for known in "$@"; do
        [[ "$word" == "$known" ]] && return 0
    done
    return 1
}

_spvtune() {
    local path="" pending="" many="" positionals=0 word i=1
    while (( i < COMP_CWORD )); do
        word="${COMP_WORDS[i]}"
        if [[ -n "$pending" && "$word" == "=" ]]; then
            :
        elif [[ -n "$pending" && -z "$many" ]]; then
            pending=""
        elif [[ "$word" == -* ]]; then
            pending="" many=""
            if _spvtune_among "$word" $(_spvtune_value_options "$path"); then
                pending="$word"
                _spvtune_among "$word" $(_spvtune_many_options "$path") && many=1
            fi
        elif [[ -n "$pending" ]]; then
            :  # one more value of an option that takes several
        elif (( positionals == 0 )) && _spvtune_among "$word" $(_spvtune_subcommands "$path"); then
            path="${path:+$path }$word"
        else
            positionals=$((positionals + 1))
        fi
        i=$((i + 1))
    done

    local cur="${COMP_WORDS[COMP_CWORD]}"
    COMPREPLY=()
    if [[ "$cur" == -* && ( -z "$pending" || -n "$many" ) ]]; then
        local IFS=' '
        COMPREPLY=($(compgen -W "$(_spvtune_flags "$path") $(_spvtune_value_options "$path")" -- "$cur"))
    elif [[ -n "$pending" ]]; then
        if [[ "$cur" == "=" ]]; then
            _spvtune_value "$(_spvtune_option_kind "$path" "$pending")" "" "="
        else
            _spvtune_value "$(_spvtune_option_kind "$path" "$pending")" "$cur" ""
        fi
    elif (( positionals == 0 )) && [[ -n "$(_spvtune_subcommands "$path")" ]]; then
        local IFS=' '
        COMPREPLY=($(compgen -W "$(_spvtune_subcommands "$path")" -- "$cur"))
    else
        _spvtune_value "$(_spvtune_positional_kind "$path" "$positionals")" "$cur" ""
    fi
}

complete -F _spvtune spvtune
)bash";

}  // namespace

std::string bash_completion_script(const CommandModel& root) {
    const std::vector<const CommandModel*> commands = all_commands(root);
    std::ostringstream out;
    out << "# bash completion for spvtune, generated by `spvtune completion bash` from its "
           "command definitions.\n"
           "# Install: spvtune completion bash > ~/.local/share/bash-completion/completions/"
           "spvtune\n\n";
    case_function(out, "_spvtune_subcommands", "$1: a command path; prints its subcommands.",
                  commands, [](const CommandModel& command) {
                      std::vector<std::string> names;
                      for (const auto& subcommand : command.subcommands) {
                          names.push_back(subcommand->path.back());
                      }
                      return words(names);
                  });
    auto option_names = [](bool with_value, bool many_only) {
        return [=](const CommandModel& command) {
            std::vector<std::string> names;
            for (const ArgumentModel* option : command.options_in_force()) {
                if (option->takes_value == with_value && (!many_only || option->takes_many)) {
                    names.insert(names.end(), option->names.begin(), option->names.end());
                }
            }
            return words(names);
        };
    };
    case_function(out, "_spvtune_flags", "$1: a command path; prints the options without a value.",
                  commands, option_names(false, false));
    case_function(out, "_spvtune_value_options",
                  "$1: a command path; prints the options that take a value.", commands,
                  option_names(true, false));
    case_function(out, "_spvtune_many_options",
                  "$1: a command path; prints the options that take several values at once.",
                  commands, option_names(true, true));
    option_kinds(out, commands);
    positional_kinds(out, commands);
    out << completion_function;
    return out.str();
}

}  // namespace spvtune::app
