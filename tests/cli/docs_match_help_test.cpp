// What README.md and docs/ say about the command line against what --help lists, so that the
// two cannot drift apart: commands, options, arguments, exit codes and defaults.
#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "cache/temp_directory.hpp"
#include "command_tree.hpp"
#include "help_listing.hpp"
#include "spvtune_run.hpp"

using namespace spvtune::test;
using spvtune::tune::testing::read_bytes;

namespace {

const std::filesystem::path source_dir{SPVTUNE_SOURCE_DIR};

}  // namespace

TEST_CASE("README's command table lists every command with exactly the options --help lists") {
    const auto documented = parse_command_table(read_bytes(source_dir / "README.md"));
    // The row without a command, `spvtune [--color ...] [--version]`, holds the global options.
    std::set<std::vector<std::string>> in_readme;
    bool global_row = false;
    for (const DocumentedCommand& command : documented) {
        if (command.path.empty()) {
            global_row = true;
        } else {
            in_readme.insert(command.path);
        }
    }
    CHECK(global_row);
    const auto leaves = leaf_commands();
    const std::set<std::vector<std::string>> in_help(leaves.begin(), leaves.end());
    CHECK(in_readme == in_help);

    for (const DocumentedCommand& command : documented) {
        CAPTURE(command_line(command.path));
        // A parent's options (`cache --cache-dir`) apply to its subcommands too; the global
        // options are the global row's.
        HelpListing listing;
        for (std::size_t depth = command.path.empty() ? 0 : 1; depth <= command.path.size();
             ++depth) {
            const HelpListing level = parse_help(
                help_of({command.path.begin(), command.path.begin() + static_cast<long>(depth)}));
            listing.options.insert(listing.options.end(), level.options.begin(),
                                   level.options.end());
            listing.positionals = level.positionals;
        }
        for (const auto& names : listing.options) {
            const bool mentioned = std::any_of(names.begin(), names.end(), [&](const auto& name) {
                return command.options.contains(name);
            });
            CHECK_MESSAGE(mentioned, "README lacks " << *names.rbegin());
        }
        for (const std::string& name : command.options) {
            const bool listed =
                std::any_of(listing.options.begin(), listing.options.end(),
                            [&](const auto& names) { return names.contains(name); });
            CHECK_MESSAGE(listed, "--help lacks " << name);
        }
        REQUIRE(command.positionals.size() == listing.positionals.size());
        for (std::size_t i = 0; i < listing.positionals.size(); ++i) {
            CAPTURE(command.positionals[i].name);
            CHECK(command.positionals[i].required == listing.positionals[i].required);
        }
    }
}

TEST_CASE("every command's --help ends with the exit codes README.md lists") {
    const std::string readme = read_bytes(source_dir / "README.md");
    const std::string codes = parse_help(help_of({})).exit_codes;
    REQUIRE(contains(codes, "130"));
    CHECK_MESSAGE(contains(readme, codes), codes);
    std::vector<std::vector<std::string>> commands = leaf_commands();
    commands.push_back({"cache"});
    for (const auto& command : commands) {
        CAPTURE(command_line(command));
        CHECK(parse_help(help_of(command)).exit_codes == codes);
    }
}

TEST_CASE("tune --help shows every default, and docs/problem-format.md the same ones") {
    const std::string text = help_of({"tune"});
    CHECK(contains(text, "default: balanced"));  // SPVTUNE_AUTOTUNE_LEVEL
    // The settings table: | `field` | meaning | default |, each default as --help states it.
    std::istringstream lines(read_bytes(source_dir / "docs" / "problem-format.md"));
    std::size_t rows = 0;
    for (std::string line; std::getline(lines, line);) {
        const auto field_end = line.find("` |");
        if (!line.starts_with("| `") || line.rfind(" | ") == line.find(" | ")) {
            continue;
        }
        const std::string field = line.substr(3, field_end - 3);
        std::string value = line.substr(line.rfind(" | ") + 3);
        value = value.substr(0, value.find(" |"));
        value.erase(std::remove(value.begin(), value.end(), '`'), value.end());
        if (!contains(text, "the file's " + field + ",")) {
            continue;  // not a settings row
        }
        ++rows;
        CAPTURE(field);
        CHECK(contains(text, "the file's " + field + ", else " + value + ")"));
    }
    // mode, warmup, samples, min_samples, min_sample_ms, both budgets, indifference_percent,
    // kernel_timeout_s; search, search_budget_s, max_candidates, seed
    CHECK(rows == 13);
}
