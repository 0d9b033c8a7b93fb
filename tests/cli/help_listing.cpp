#include "help_listing.hpp"

#include <cctype>
#include <sstream>

namespace spvtune::test {
namespace {

std::vector<std::string> split(const std::string& text, char separator) {
    std::vector<std::string> parts;
    std::string part;
    for (std::istringstream in(text); std::getline(in, part, separator);) {
        if (!part.empty()) {
            parts.push_back(part);
        }
    }
    return parts;
}

std::string first_word(const std::string& line) {
    std::istringstream in(line);
    std::string word;
    in >> word;
    return word;
}

bool is_option(const std::string& word) {
    const std::size_t first = word.starts_with("--") ? 2 : 1;
    return word.size() > first && word[0] == '-' &&
           std::isalpha(static_cast<unsigned char>(word[first])) != 0;
}

std::string strip(std::string word, const std::string& characters) {
    while (!word.empty() && characters.find(word.front()) != std::string::npos) {
        word.erase(0, 1);
    }
    while (!word.empty() && characters.find(word.back()) != std::string::npos) {
        word.pop_back();
    }
    return word;
}

/// A word of a usage line: `name`, `[name]`, `name...`.
Positional usage_word(const std::string& word) {
    const std::string bare = strip(word, "[]");
    const bool repeated = bare.ends_with("...");
    return {repeated ? bare.substr(0, bare.size() - 3) : bare, !word.starts_with("["), repeated};
}

/// "Usage: spvtune cache show [OPTIONS] [file]": the words after [OPTIONS], SUBCOMMAND left out.
std::vector<Positional> usage_positionals(const std::string& line) {
    std::vector<Positional> positionals;
    std::istringstream words(line.substr(line.find("[OPTIONS]") + 9));
    for (std::string word; words >> word;) {
        if (strip(word, "[]").starts_with("SUBCOMMAND")) {
            continue;
        }
        positionals.push_back(usage_word(word));
    }
    return positionals;
}

}  // namespace

HelpListing parse_help(const std::string& help) {
    HelpListing listing;
    std::string section;
    std::istringstream lines(help);
    for (std::string line; std::getline(lines, line);) {
        if (line.starts_with("Exit codes:")) {
            listing.exit_codes = help.substr(help.find("Exit codes:"));
            listing.exit_codes.erase(listing.exit_codes.find_last_not_of('\n') + 1);
            break;
        }
        if (line.starts_with("Usage:") && line.find("[OPTIONS]") != std::string::npos) {
            listing.usage = usage_positionals(line);
        }
        if (!line.empty() && line[0] != ' ') {
            section = line;
            continue;
        }
        // An entry starts two spaces in; its wrapped description further in.
        if (line.size() < 3 || line[2] == ' ') {
            continue;
        }
        const std::string word = first_word(line);
        if (section == "Options:" && word != "-h,--help") {
            const std::vector<std::string> names = split(word, ',');
            listing.options.emplace_back(names.begin(), names.end());
        } else if (section == "Positionals:") {
            listing.positionals.push_back({word, line.find("REQUIRED") != std::string::npos});
        } else if (section == "Subcommands:") {
            listing.subcommands.push_back(word);
        }
    }
    return listing;
}

std::vector<DocumentedCommand> parse_command_table(const std::string& markdown) {
    std::vector<DocumentedCommand> commands;
    std::istringstream lines(markdown);
    for (std::string line; std::getline(lines, line);) {
        if (!line.starts_with("| `spvtune ")) {
            continue;
        }
        // `[-q\|-v]`: a pipe escaped for the table separates two options.
        std::string span;
        for (char c : line.substr(3, line.find("` |") - 3)) {
            span += c == '|' || c == '\\' ? ' ' : c;
        }
        std::istringstream words(span);
        DocumentedCommand command;
        std::string word;
        words >> word;  // spvtune
        bool in_path = true;
        bool in_group = false;         // inside [...]
        bool group_is_option = false;  // the group is an option and its value
        bool option_value = false;     // the word follows a required option (`-o DIR`)
        while (words >> word) {
            if (in_path && std::islower(static_cast<unsigned char>(word[0])) != 0) {
                command.path.push_back(word);
                continue;
            }
            in_path = false;
            const std::string bare = strip(word, "[].");
            const bool repeated = word.find("...") != std::string::npos;
            if (word.starts_with("[")) {
                in_group = true;
                group_is_option = is_option(bare);
            }
            const bool value_of_option = option_value;
            option_value = !in_group && is_option(bare);
            if (is_option(bare)) {
                command.options.insert(bare);
            } else if (!(in_group && group_is_option) && !value_of_option) {
                // Not an option's value: a positional, optional when bracketed.
                command.positionals.push_back({bare, !in_group, repeated});
            }
            if (word.find(']') != std::string::npos) {
                in_group = false;
            }
        }
        commands.push_back(std::move(command));
    }
    return commands;
}

}  // namespace spvtune::test
