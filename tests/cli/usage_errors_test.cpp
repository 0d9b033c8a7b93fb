// First contact: a bare command prints its usage, a mistyped command or option gets a
// did-you-mean, as git and cargo do.
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "cache/temp_directory.hpp"
#include "command_tree.hpp"
#include "spvtune_run.hpp"

namespace usage_errors_test {

using namespace spvtune::test;
using spvtune::tune::testing::TempDirectory;

namespace {

SpvtuneRun spvtune_with(const std::vector<std::string>& args) {
    TempDirectory scratch;
    return run_spvtune(scratch, args);
}

}  // namespace

TEST_CASE("bare spvtune and bare spvtune cache print their usage and exit 2") {
    const SpvtuneRun bare = spvtune_with({});
    CHECK(bare.exit_code == 2);
    CHECK(contains(bare.err, "Subcommands:"));
    CHECK(contains(bare.err, "compare"));
    CHECK(contains(bare.err, "Exit codes:"));

    const SpvtuneRun cache = spvtune_with({"cache"});
    CHECK(cache.exit_code == 2);
    CHECK(contains(cache.err, "merge"));
    CHECK(contains(cache.err, "verify"));
}

TEST_CASE("a mistyped command or option is named, with the closest one") {
    const SpvtuneRun command = spvtune_with({"tuen", "configs/saxpy.json"});
    CHECK(command.exit_code == 2);
    CHECK(contains(command.err, "'tuen' is not a spvtune command; did you mean 'tune'?"));

    const SpvtuneRun subcommand = spvtune_with({"cache", "shwo"});
    CHECK(subcommand.exit_code == 2);
    CHECK(contains(subcommand.err, "did you mean 'show'?"));

    const SpvtuneRun option = spvtune_with({"tune", "--retnue", SPVTUNE_CONFIG_DIR "/saxpy.json"});
    CHECK(option.exit_code == 2);
    CHECK(contains(option.err, "spvtune tune has no option '--retnue'; did you mean '--retune'?"));

    // A parent's option counts too: `cache --cache-dir` applies to `cache list`.
    const SpvtuneRun inherited = spvtune_with({"cache", "list", "--cache-dri", "x"});
    CHECK(inherited.exit_code == 2);
    CHECK(contains(inherited.err, "did you mean '--cache-dir'?"));

    const SpvtuneRun far = spvtune_with({"tune", "--zzzzzzzz", SPVTUNE_CONFIG_DIR "/saxpy.json"});
    CHECK(far.exit_code == 2);
    CHECK(contains(far.err, "has no option '--zzzzzzzz'"));
    CHECK_FALSE(contains(far.err, "did you mean"));
}

TEST_CASE("a bare command says that a command is required, and which ones there are") {
    const SpvtuneRun bare = spvtune_with({});
    CHECK(bare.exit_code == 2);
    // Last, after the help, where the eye lands; the hidden commands stay hidden.
    CHECK(bare.err.ends_with(
        "spvtune: error: a command is required (one of: devices, cache, check, tune, compare, "
        "report, replay, show-output, completion)\n"));

    const SpvtuneRun cache = spvtune_with({"cache"});
    CHECK(cache.exit_code == 2);
    CHECK(cache.err.ends_with(
        "spvtune: error: 'spvtune cache' needs a command (one of: path, list, show, clear, merge, "
        "verify, prune, diff, compact, export)\n"));
}

TEST_CASE("an unknown option is named in every command, even when a value follows it") {
    // CLI11 gives the value to the command's positional, whose check then fails first
    // ("problems: File does not exist: 5"): the unknown option must still be what is reported.
    for (const auto& path : leaf_commands()) {
        const std::string name = command_line(path);
        CAPTURE(name);
        std::vector<std::string> after = path;
        after.insert(after.end(), {SPVTUNE_CONFIG_DIR "/saxpy.json", "--zzzzzzzz", "5"});
        std::vector<std::string> before = path;
        before.insert(before.end(), {"--zzzzzzzz", "5", SPVTUNE_CONFIG_DIR "/saxpy.json"});
        for (const auto& args : {after, before}) {
            const SpvtuneRun run = spvtune_with(args);
            CHECK(run.exit_code == 2);
            CHECK_MESSAGE(
                contains(run.err, "spvtune: error: " + name + " has no option '--zzzzzzzz'"),
                run.err);
        }
    }
}

TEST_CASE("a mistyped option followed by its value gets the option it resembles") {
    const std::string problem = SPVTUNE_CONFIG_DIR "/saxpy.json";
    for (const auto& args : {std::vector<std::string>{"tune", problem, "--samplse", "5"},
                             std::vector<std::string>{"tune", "--samplse", "5", problem}}) {
        const SpvtuneRun run = spvtune_with(args);
        CHECK(run.exit_code == 2);
        CHECK(
            contains(run.err, "spvtune tune has no option '--samplse'; did you mean '--samples'?"));
        CHECK_FALSE(contains(run.err, "File does not exist"));
    }
    const SpvtuneRun check = spvtune_with({"check", problem, "--kernel-dri", "kernels"});
    CHECK(check.exit_code == 2);
    CHECK(contains(check.err, "did you mean '--kernel-dir'?"));
}

TEST_CASE("a command's option written before the command is named with its command") {
    const SpvtuneRun run =
        spvtune_with({"--samples", "5", "tune", SPVTUNE_CONFIG_DIR "/saxpy.json"});
    CHECK(run.exit_code == 2);
    CHECK(contains(run.err,
                   "spvtune: error: '--samples' is an option of spvtune tune: write it "
                   "after 'tune'"));

    const SpvtuneRun nested = spvtune_with({"cache", "--json", "show"});
    CHECK(nested.exit_code == 2);
    CHECK(
        contains(nested.err, "'--json' is an option of spvtune cache show: write it after 'show'"));
}

TEST_CASE("--version names the version, the commit it was built from and the Vulkan loader") {
    const SpvtuneRun version = spvtune_with({"--version"});
    CHECK(version.exit_code == 0);
    CHECK(contains(version.out, "spvtune 0."));
    CHECK(contains(version.out, "(commit "));
    CHECK_FALSE(contains(version.out, "commit unknown"));
    CHECK(contains(version.out, "Vulkan loader 1."));
}

}  // namespace usage_errors_test
