// The environment variables every command honours alike (README.md, `--help`).
#include <filesystem>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "cache/temp_directory.hpp"
#include "spvtune_run.hpp"
#include "support/scoped_env.hpp"

namespace environment_test {

using namespace spvtune::test;
using spvtune::tune::testing::TempDirectory;

namespace {

const std::string saxpy = (std::filesystem::path(SPVTUNE_CONFIG_DIR) / "saxpy.json").string();

/// The loader names each layer it loads on stderr when VK_LOADER_DEBUG asks it to.
bool loaded_validation_layer(const std::vector<std::string>& args) {
    TempDirectory scratch;
    const ScopedEnv debug("VK_LOADER_DEBUG", "layer");
    const SpvtuneRun run = run_spvtune(scratch, args);
    CHECK_MESSAGE(run.exit_code == 0, run.err);
    return contains(run.err, "libVkLayer_khronos_validation");
}

}  // namespace

TEST_CASE("SPVTUNE_VALIDATION=1 runs check and devices with the validation layer too") {
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"devices"}, std::vector<std::string>{"check", saxpy}}) {
        CAPTURE(args.front());
        ScopedEnv validation("SPVTUNE_VALIDATION", std::nullopt);
        CHECK_FALSE(loaded_validation_layer(args));
        validation.set("1");
        CHECK(loaded_validation_layer(args));
    }
}

TEST_CASE("check plans keys at SPVTUNE_AUTOTUNE_LEVEL and refuses an unknown level as tune does") {
    TempDirectory scratch;
    ScopedEnv level("SPVTUNE_AUTOTUNE_LEVEL", "full");
    const SpvtuneRun full = run_spvtune(scratch, {"check", saxpy});
    CHECK_MESSAGE(full.exit_code == 0, full.err);
    CHECK(contains(full.out, "key n=1000: 4 of 4 candidates"));  // full: no bucket
    CHECK_FALSE(contains(full.out, "tuned as"));

    level.set("bogus");
    const std::string expected =
        "spvtune: error: SPVTUNE_AUTOTUNE_LEVEL: unknown autotune level 'bogus'";
    const SpvtuneRun check = run_spvtune(scratch, {"check", saxpy});
    CHECK(check.exit_code == 2);
    CHECK_MESSAGE(contains(check.err, expected), check.err);
    const SpvtuneRun tune = run_spvtune(scratch, {"tune", saxpy, "--compile-only"});
    CHECK(tune.exit_code == 2);
    CHECK(contains(tune.err, expected));
}

}  // namespace environment_test
