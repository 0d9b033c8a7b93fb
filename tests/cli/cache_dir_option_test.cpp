// `--cache-dir` among the cache subcommands: taken, and listed by --help, by those that use a cache
// directory; refused by those that work only on the paths they name, rather than ignored.
#include <filesystem>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "cache/temp_directory.hpp"
#include "spvtune_run.hpp"
#include "support/scoped_env.hpp"

namespace cache_dir_option_test {

using namespace spvtune::test;
using spvtune::tune::testing::TempDirectory;
namespace fs = std::filesystem;

TEST_CASE("cache verify and prune keep the GLSL they compile in their --cache-dir") {
    TempDirectory scratch;
    TempDirectory shipped;
    TempDirectory environment_cache;
    const ScopedEnv cache_dir("SPVTUNE_CACHE_DIR", environment_cache.path().string());
    for (const char* subcommand : {"verify", "prune"}) {
        CAPTURE(subcommand);
        TempDirectory named_cache;
        const SpvtuneRun run =
            run_spvtune(scratch, {"cache", subcommand, shipped.path().string(), "--problems",
                                  SPVTUNE_CONFIG_DIR "/glsl_variants.json", "--cache-dir",
                                  named_cache.path().string()});
        CHECK_MESSAGE(run.err.empty(), run.err);
        CHECK(fs::is_directory(named_cache.path() / "glsl"));
        CHECK_FALSE(fs::exists(environment_cache.path() / "glsl"));
    }
}

TEST_CASE("cache merge, diff and compact refuse --cache-dir, before or after the subcommand") {
    TempDirectory scratch;
    const std::string here = scratch.path().string();
    const std::string output = (scratch.path() / "merged").string();
    const std::vector<std::vector<std::string>> commands = {
        {"merge", here, "-o", output}, {"diff", here, here}, {"compact", here}};
    for (const auto& command : commands) {
        CAPTURE(command.front());
        std::vector<std::string> after = {"cache"};
        after.insert(after.end(), command.begin(), command.end());
        after.insert(after.end(), {"--cache-dir", here});
        std::vector<std::string> before = {"cache", "--cache-dir", here};
        before.insert(before.end(), command.begin(), command.end());
        for (const auto& args : {after, before}) {
            const SpvtuneRun run = run_spvtune(scratch, args);
            CHECK(run.exit_code == 2);
            CHECK(run.err == "spvtune: error: spvtune cache " + command.front() +
                                 " takes no --cache-dir: it works on the paths it names\n");
        }
    }
    CHECK_FALSE(fs::exists(output));
}

}  // namespace cache_dir_option_test
