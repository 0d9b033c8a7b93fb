// The README's main job: tuning configs/demo.json leaves a cache file, and a second run finds
// every key there and measures nothing.

#include <filesystem>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "cli/spvtune_run.hpp"

namespace demo_test {

using spvtune::test::contains;
using spvtune::tune::testing::read_bytes;
using spvtune::tune::testing::TempDirectory;
namespace fs = std::filesystem;

namespace {

std::vector<fs::path> cache_files(const fs::path& directory) {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(directory)) {
        if (entry.path().extension() == ".json") {
            files.push_back(entry.path());
        }
    }
    return files;
}

}  // namespace

TEST_CASE("the demo leaves a cache file, and a second run is all cache hits") {
    TempDirectory scratch;
    const fs::path cache = scratch.path() / "cache";
    const fs::path report = scratch.path() / "report.json";
    const std::vector<std::string> demo = {
        "tune",        std::string(SPVTUNE_CONFIG_DIR) + "/demo.json",
        "--cache-dir", cache.string(),
        "--json",      report.string()};

    const auto first = spvtune::test::run_spvtune(scratch, demo);
    REQUIRE_MESSAGE(first.exit_code == 0, first.out << first.err);
    REQUIRE(cache_files(cache).size() == 1);
    CHECK(contains(first.out, cache_files(cache).front().string()));
    const auto tuned = nlohmann::json::parse(read_bytes(report)).at("problems").at(0).at("keys");
    REQUIRE(tuned.size() >= 2);
    for (const auto& key : tuned) {
        CHECK(key.at("status") == "tuned");
    }
    const std::string cache_bytes = read_bytes(cache_files(cache).front());

    const auto second = spvtune::test::run_spvtune(scratch, demo);
    REQUIRE_MESSAGE(second.exit_code == 0, second.out << second.err);
    const auto cached = nlohmann::json::parse(read_bytes(report)).at("problems").at(0).at("keys");
    REQUIRE(cached.size() == tuned.size());
    for (std::size_t i = 0; i < cached.size(); ++i) {
        CHECK(cached[i].at("status") == "cached");
        CHECK(cached[i].at("winner") == tuned[i].at("winner"));
        for (const auto& candidate : cached[i].at("candidates")) {
            CHECK_FALSE(candidate.contains("samples_ns"));
        }
    }
    CHECK(read_bytes(cache_files(cache).front()) == cache_bytes);
}

}  // namespace demo_test
