// First contact: a bare command prints its usage, a mistyped command or option gets a
// did-you-mean, as git and cargo do.
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "cache/temp_directory.hpp"
#include "spvtune_run.hpp"

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

TEST_CASE("--version names the version, the commit it was built from and the Vulkan loader") {
    const SpvtuneRun version = spvtune_with({"--version"});
    CHECK(version.exit_code == 0);
    CHECK(contains(version.out, "spvtune 0."));
    CHECK(contains(version.out, "(commit "));
    CHECK_FALSE(contains(version.out, "commit unknown"));
    CHECK(contains(version.out, "Vulkan loader 1."));
}
