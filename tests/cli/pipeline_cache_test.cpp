// The pipeline cache file tune keeps next to the cache file: written by a run (in the worker
// process, by default), used by the next, replaced when it is garbage, and left alone by the
// cache commands.
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/cache/pipeline_cache_file.hpp>

#include "tune_fixture.hpp"

namespace pipeline_cache_test {

using namespace spvtune::test;
using spvtune::tune::testing::read_bytes;
using spvtune::tune::testing::write_bytes;
namespace fs = std::filesystem;

TEST_CASE("tune leaves a pipeline cache file next to the cache file, named after it") {
    for (const bool in_process : {false, true}) {
        CAPTURE(in_process);
        TuneFixture fixture;
        std::vector<std::string> extra;
        if (in_process) {
            extra.push_back("--in-process");
        }
        const SpvtuneRun run = fixture.tune("grid2.json", extra);
        REQUIRE_MESSAGE(run.exit_code == 0, run.err);
        const auto caches = fixture.cache_files();
        const auto pipelines = fixture.files_ending_in(".pipelines");
        REQUIRE(caches.size() == 1);
        REQUIRE(pipelines.size() == 1);
        CHECK(pipelines.front().stem() == caches.front().stem());
        // A sound file holding at least the driver's VkPipelineCacheHeaderVersionOne (lavapipe
        // of Mesa 22 keeps nothing more in its pipeline caches).
        const auto data = spvtune::cache::read_pipeline_cache_file(pipelines.front());
        REQUIRE(data);
        CHECK(data.value().size() >= 32);
    }
}

TEST_CASE("tune replaces a garbage pipeline cache file and still tunes, noting it with -v") {
    TuneFixture fixture;
    REQUIRE(fixture.tune("grid2.json", {"--compile-only"}).exit_code == 0);
    const auto pipelines = fixture.files_ending_in(".pipelines");
    REQUIRE(pipelines.size() == 1);
    const std::string garbage(3000, '\x13');
    write_bytes(pipelines.front(), garbage);

    const SpvtuneRun run = fixture.tune("grid2.json", {"-v"});
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    CHECK(contains(run.err, "ignoring the pipeline cache"));
    for (const auto& key : fixture.keys()) {
        CHECK(key.at("status") == "tuned");
        CHECK(key.at("time").at("pipeline_builds_s").get<double>() >= 0);
    }
    CHECK(read_bytes(pipelines.front()) != garbage);

    // Without -v a bad file is no news: nothing is said.
    write_bytes(pipelines.front(), garbage);
    const SpvtuneRun quiet = fixture.tune("grid2.json", {"--retune"});
    REQUIRE_MESSAGE(quiet.exit_code == 0, quiet.err);
    CHECK_FALSE(contains(quiet.err, "pipeline cache"));
}

TEST_CASE("tune --no-pipeline-cache neither reads nor writes a pipeline cache file") {
    TuneFixture fixture;
    REQUIRE(fixture.tune("grid2.json", {"--compile-only", "--no-pipeline-cache"}).exit_code == 0);
    CHECK(fixture.files_ending_in(".pipelines").empty());
}

TEST_CASE("the cache commands leave the pipeline cache file alone") {
    TuneFixture fixture;
    REQUIRE(fixture.tune("grid2.json").exit_code == 0);
    const auto pipelines = fixture.files_ending_in(".pipelines");
    REQUIRE(pipelines.size() == 1);
    const std::string kept = read_bytes(pipelines.front());
    const std::string directory = fixture.cache.string();
    const std::string grid2 = problems + "/grid2.json";
    const std::string kernels = SPVTUNE_CLI_TEST_KERNEL_DIR;
    for (const std::vector<std::string>& command :
         {std::vector<std::string>{"cache", "--cache-dir", directory, "list"},
          {"cache", "--cache-dir", directory, "show", fixture.cache_files().front().string()},
          {"cache", "verify", directory, "--problems", grid2, "--kernel-dir", kernels},
          {"cache", "compact", directory},
          {"cache", "prune", directory, "--problems", grid2, "--kernel-dir", kernels}}) {
        const SpvtuneRun run = run_spvtune(fixture.scratch, command);
        CAPTURE(command[2]);
        CHECK_MESSAGE(run.exit_code == 0, run.err);
        CHECK_FALSE(contains(run.out + run.err, ".pipelines"));
    }
    REQUIRE(fs::exists(pipelines.front()));
    CHECK(read_bytes(pipelines.front()) == kept);
}

}  // namespace pipeline_cache_test
