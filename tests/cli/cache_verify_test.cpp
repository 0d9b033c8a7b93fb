// `spvtune cache verify` (the release gate) and `cache prune` against a cache made by tune.
#include <filesystem>
#include <fstream>
#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "tune_fixture.hpp"

namespace cache_verify_test {

using namespace spvtune::test;
using spvtune::tune::testing::read_bytes;
namespace fs = std::filesystem;

namespace {

struct ShippedCache : TuneFixture {
    ShippedCache() {
        const SpvtuneRun tuned = tune("scale.json", {"-q"});
        REQUIRE_MESSAGE(tuned.exit_code == 0, tuned.out << tuned.err);
    }

    SpvtuneRun cache_command(std::vector<std::string> args) {
        args.insert(args.begin(), "cache");
        args.insert(args.end(), {"--kernel-dir", SPVTUNE_CLI_TEST_KERNEL_DIR});
        return run_spvtune(scratch, args);
    }

    /// scale.json with one candidate changed: a new candidate list, so a new checksum.
    std::string edited_problem() {
        nlohmann::json problem =
            nlohmann::json::parse(read_bytes(fs::path(problems) / "scale.json"));
        problem["candidates"][1]["specialization"]["0"] = 128;
        problem["candidates"][1]["workgroups"][0] = "ceil_div(n, 128)";
        const fs::path file = scratch.path() / "scale.json";
        std::ofstream(file) << problem.dump();
        return file.string();
    }
};

}  // namespace

TEST_CASE("cache verify passes a cache that covers every key, and names each gap otherwise") {
    ShippedCache shipped;
    const std::string scale = problems + "/scale.json";
    const SpvtuneRun covered =
        shipped.cache_command({"verify", shipped.cache.string(), "--problems", scale});
    CHECK_MESSAGE(covered.exit_code == 0, covered.out << covered.err);
    CHECK(contains(covered.out, "every key has a current entry"));

    const SpvtuneRun stale = shipped.cache_command(
        {"verify", shipped.cache.string(), "--problems", shipped.edited_problem()});
    CHECK(stale.exit_code == 1);
    CHECK(contains(stale.out,
                   "scale-test n=16384: stale (candidates changed): the file has an "
                   "entry for an older candidate list"));
    CHECK_FALSE(contains(stale.out, "never tuned:"));
    CHECK(contains(stale.out, "2 keys without a current entry (0 never tuned, 2 stale)"));

    const SpvtuneRun absent =
        shipped.cache_command({"verify", shipped.cache.string(), "--problems", scale, "--hardware",
                               "some-gpu-0123456789abcdef"});
    CHECK(absent.exit_code == 1);
    CHECK(contains(absent.out, "no cache file for hardware some-gpu-0123456789abcdef"));
}

TEST_CASE("cache verify tells a key never tuned from one whose candidates changed") {
    ShippedCache shipped;
    // Same candidates (same checksum), one key more than the cache was tuned for.
    nlohmann::json problem = nlohmann::json::parse(read_bytes(fs::path(problems) / "scale.json"));
    problem["keys"]["list"].push_back({{"n", 65536}});
    const fs::path grown = shipped.scratch.path() / "grown.json";
    std::ofstream(grown) << problem.dump();
    const SpvtuneRun run =
        shipped.cache_command({"verify", shipped.cache.string(), "--problems", grown.string()});
    CHECK(run.exit_code == 1);
    CHECK(contains(run.out, "scale-test n=65536: never tuned: no entry for any candidate list"));
    CHECK_FALSE(contains(run.out, "n=16384"));
    CHECK(contains(run.out, "1 keys without a current entry (1 never tuned, 0 stale)"));
}

TEST_CASE("cache verify refuses a damaged cache file without touching it") {
    ShippedCache shipped;
    const fs::path file = shipped.cache_files().at(0);
    std::ofstream(file, std::ios::app) << "garbage";
    const std::string before = read_bytes(file);
    const SpvtuneRun run = shipped.cache_command(
        {"verify", shipped.cache.string(), "--problems", problems + "/scale.json"});
    CHECK(run.exit_code == 2);
    CHECK(contains(run.err, file.filename().string()));
    CHECK(read_bytes(file) == before);
}

TEST_CASE("cache prune removes older candidate lists, and --dry-run only says so") {
    ShippedCache shipped;
    const std::string edited = shipped.edited_problem();
    const fs::path file = shipped.cache_files().at(0);
    const std::string before = read_bytes(file);

    const SpvtuneRun dry =
        shipped.cache_command({"prune", shipped.cache.string(), "--problems", edited, "--dry-run"});
    CHECK_MESSAGE(dry.exit_code == 0, dry.err);
    CHECK(contains(dry.out, "would remove 2 entries"));
    CHECK(read_bytes(file) == before);

    // A problem the command is not told about keeps its entries.
    const SpvtuneRun kept = shipped.cache_command(
        {"prune", shipped.cache.string(), "--problems", problems + "/compare.json"});
    CHECK(kept.exit_code == 0);
    CHECK(read_bytes(file) == before);

    const SpvtuneRun pruned =
        shipped.cache_command({"prune", shipped.cache.string(), "--problems", edited});
    CHECK_MESSAGE(pruned.exit_code == 0, pruned.err);
    CHECK(contains(pruned.out, "removed 2 entries"));
    const nlohmann::json after = nlohmann::json::parse(read_bytes(file));
    CHECK_FALSE(after.at("tuners").contains("scale-test"));
}

TEST_CASE("cache show without a file shows the selected device's file, as cache path names it") {
    ShippedCache shipped;
    const SpvtuneRun shown =
        run_spvtune(shipped.scratch, {"cache", "show", "--cache-dir", shipped.cache.string()});
    CHECK_MESSAGE(shown.exit_code == 0, shown.err);
    CHECK(contains(shown.out, shipped.cache_files().at(0).string()));
    CHECK(contains(shown.out, "scale-test"));

    const fs::path empty = shipped.scratch.path() / "empty";
    fs::create_directories(empty);
    const SpvtuneRun none =
        run_spvtune(shipped.scratch, {"cache", "show", "--cache-dir", empty.string()});
    CHECK(none.exit_code == 0);
    CHECK(contains(none.out, "no cache file for this device yet"));
}

}  // namespace cache_verify_test
