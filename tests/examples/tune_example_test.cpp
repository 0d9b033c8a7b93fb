// lib/run/examples/tune_problem.cpp, the front door's example, run as a user would: a session
// tunes every key of a problem, in worker processes (the program itself, started again) or in
// process, into the cache file of the device's hardware, and a second run finds them cached.

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "cli/spvtune_run.hpp"

namespace tune_example_test {

using spvtune::test::contains;
using spvtune::test::SpvtuneRun;
using spvtune::tune::testing::read_bytes;
using spvtune::tune::testing::TempDirectory;
using spvtune::tune::testing::write_bytes;
namespace fs = std::filesystem;

namespace {

/// configs/saxpy.json cut to one small key and a few samples (lavapipe is slow), in a scratch
/// directory with the validation layer on, which every run must not hear from.
struct Fixture {
    TempDirectory scratch;
    fs::path problem = scratch.path() / "saxpy.json";
    fs::path cache = scratch.path() / "cache";

    Fixture() {
        auto json =
            nlohmann::json::parse(read_bytes(std::string(SPVTUNE_CONFIG_DIR) + "/saxpy.json"));
        json["keys"] = {{"list", {{{"n", 1000}}}}};
        json["settings"] = {{"warmup", 1}, {"samples", 3}, {"min_samples", 2}};
        write_bytes(problem, json.dump());
        ::setenv("SPVTUNE_VALIDATION", "1", 1);
    }
    ~Fixture() { ::unsetenv("SPVTUNE_VALIDATION"); }
    Fixture(const Fixture&) = delete;
    Fixture& operator=(const Fixture&) = delete;

    SpvtuneRun example(const std::vector<std::string>& extra = {}) {
        std::vector<std::string> args{problem.string(), cache.string()};
        args.insert(args.end(), extra.begin(), extra.end());
        SpvtuneRun run = spvtune::test::run_program(SPVTUNE_EXAMPLE_TUNE, scratch, args);
        CHECK_MESSAGE(!contains(run.err, "validation"), run.err);
        return run;
    }

    /// The cache files in the cache directory, and whether a journal is left beside one.
    std::vector<fs::path> cache_files(bool& journal) const {
        std::vector<fs::path> files;
        journal = false;
        for (const auto& entry : fs::directory_iterator(cache)) {
            journal = journal || entry.path().extension() == ".journal";
            if (entry.path().extension() == ".json") {
                files.push_back(entry.path());
            }
        }
        return files;
    }
};

}  // namespace

TEST_CASE("the front door's example tunes in worker processes, then answers from the cache") {
    Fixture fixture;
    const SpvtuneRun first = fixture.example();
    REQUIRE_MESSAGE(first.exit_code == 0, first.out, first.err);
    CHECK_MESSAGE(contains(first.out, "n=1000: tuned, winner saxpy[WG="), first.out);
    bool journal = true;
    const std::vector<fs::path> files = fixture.cache_files(journal);
    REQUIRE(files.size() == 1);
    CHECK_FALSE(journal);  // the session's finish folded it into the file
    CHECK(contains(first.out, "cache file: " + files.front().string()));
    const auto cache = nlohmann::json::parse(read_bytes(files.front()));
    CHECK(cache.at("tuners").contains("saxpy"));

    const SpvtuneRun second = fixture.example();
    REQUIRE_MESSAGE(second.exit_code == 0, second.out, second.err);
    CHECK_MESSAGE(contains(second.out, "n=1000: cached, winner saxpy[WG="), second.out);
}

TEST_CASE("the front door's example tunes in process when asked") {
    Fixture fixture;
    const SpvtuneRun run = fixture.example({"--in-process"});
    REQUIRE_MESSAGE(run.exit_code == 0, run.out, run.err);
    CHECK_MESSAGE(contains(run.out, "n=1000: tuned, winner saxpy[WG="), run.out);
}

}  // namespace tune_example_test
