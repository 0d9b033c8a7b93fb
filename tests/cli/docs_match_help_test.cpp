// What README.md and docs/ say about the command line against what --help lists, so that the
// two cannot drift apart: commands, options, arguments, exit codes and defaults.
#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "cache/temp_directory.hpp"
#include "command_tree.hpp"
#include "help_listing.hpp"
#include "spvtune_run.hpp"

namespace docs_match_help_test {

using namespace spvtune::test;
using spvtune::tune::testing::read_bytes;

namespace {

namespace fs = std::filesystem;

const fs::path source_dir{SPVTUNE_SOURCE_DIR};

/// The environment variables app/ and lib/ read. A file that calls getenv, and the header of the
/// same name (where a name may be a constant), may name them in literals: every `"ALL_CAPS"`
/// literal with an underscore there is taken for one, and so is any literal passed straight to
/// getenv or to an `environment...(` helper (`"HOME"`, `"TERM"`).
std::set<std::string> environment_variables_read() {
    std::set<std::string> reading_stems;
    std::vector<fs::path> sources;
    for (const char* top : {"app", "lib"}) {
        for (const auto& entry : fs::recursive_directory_iterator(source_dir / top)) {
            const fs::path& path = entry.path();
            if (path.extension() == ".cpp" || path.extension() == ".hpp") {
                sources.push_back(path);
                if (contains(read_bytes(path), "getenv")) {
                    reading_stems.insert(path.stem().string());
                }
            }
        }
    }
    const std::regex underscored(R"re("([A-Z][A-Z0-9]*(_[A-Z0-9]+)+)")re");
    const std::regex passed(R"re((getenv|environment\w*)\s*\(\s*"([A-Z][A-Z0-9_]*)")re");
    std::set<std::string> names;
    for (const fs::path& path : sources) {
        if (!reading_stems.contains(path.stem().string())) {
            continue;
        }
        const std::string text = read_bytes(path);
        for (std::sregex_iterator it(text.begin(), text.end(), underscored), end; it != end; ++it) {
            names.insert((*it)[1]);
        }
        for (std::sregex_iterator it(text.begin(), text.end(), passed), end; it != end; ++it) {
            names.insert((*it)[2]);
        }
    }
    return names;
}

bool names_variable(const std::string& text, const std::string& name) {
    return std::regex_search(text, std::regex("\\b" + name + "\\b"));
}

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
        // A command's own --help, not its parents': an option a subcommand takes must be in its
        // --help (`cache list --cache-dir`). The global options are the global row's.
        const HelpListing listing = parse_help(help_of(command.path));
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
        // As the usage line shows them: `compare FILE [FILE]` is `files [files]`, not
        // `files(1x)`, which reads as exactly one.
        CHECK(command.positionals.size() == listing.usage.size());
        for (std::size_t i = 0; i < std::min(command.positionals.size(), listing.usage.size());
             ++i) {
            CAPTURE(command.positionals[i].name);
            CAPTURE(listing.usage[i].name);
            CHECK(command.positionals[i].required == listing.usage[i].required);
            CHECK(command.positionals[i].repeated == listing.usage[i].repeated);
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
    // mode, warmup, samples, min_samples, samples_per_submission, min_sample_ms, both budgets,
    // indifference_percent, kernel_timeout_s; search, search_budget_s, max_candidates, seed,
    // patience
    CHECK(rows == 15);
}

TEST_CASE("every environment variable the code reads is in README.md and in a command's --help") {
    const std::set<std::string> variables = environment_variables_read();
    // What the search must find, so that a change to how the code reads them cannot empty it.
    for (const char* known :
         {"SPVTUNE_CACHE_DIR", "SPVTUNE_BUILD_THREADS", "SLURM_ARRAY_TASK_ID", "CI_NODE_TOTAL",
          "JOB_COMPLETION_INDEX", "NO_COLOR", "TERM", "HOME"}) {
        CHECK_MESSAGE(variables.contains(known), known);
    }
    const std::string readme = read_bytes(source_dir / "README.md");
    std::string help = help_of({}) + help_of({"cache"});
    for (const auto& command : leaf_commands()) {
        help += help_of(command);
    }
    for (const std::string& name : variables) {
        CAPTURE(name);
        CHECK(names_variable(readme, name));
        // Read by the worker for tests only (faults to fake, a log of its starts): README tells
        // test writers, --help keeps them from users.
        if (!name.starts_with("SPVTUNE_TEST_WORKER_")) {
            CHECK(names_variable(help, name));
        }
    }
}

}  // namespace docs_match_help_test
