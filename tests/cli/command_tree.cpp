#include "command_tree.hpp"

#include <doctest/doctest.h>

#include "cache/temp_directory.hpp"
#include "help_listing.hpp"
#include "spvtune_run.hpp"

namespace spvtune::test {
namespace {

void collect_leaves(const std::vector<std::string>& path,
                    std::vector<std::vector<std::string>>& leaves) {
    const HelpListing listing = parse_help(help_of(path));
    if (!path.empty() && listing.subcommands.empty()) {
        leaves.push_back(path);
    }
    for (const std::string& subcommand : listing.subcommands) {
        std::vector<std::string> child = path;
        child.push_back(subcommand);
        collect_leaves(child, leaves);
    }
}

}  // namespace

std::string help_of(const std::vector<std::string>& path) {
    tune::testing::TempDirectory scratch;
    std::vector<std::string> args = path;
    args.push_back("--help");
    const SpvtuneRun run = run_spvtune(scratch, args);
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    return run.out;
}

std::vector<std::vector<std::string>> leaf_commands() {
    std::vector<std::vector<std::string>> leaves;
    collect_leaves({}, leaves);
    return leaves;
}

std::string command_line(const std::vector<std::string>& path) {
    std::string text = "spvtune";
    for (const std::string& word : path) {
        text += " " + word;
    }
    return text;
}

}  // namespace spvtune::test
