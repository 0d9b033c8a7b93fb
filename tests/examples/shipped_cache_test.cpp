// app/examples/shipped_cache.cpp run as a user would, against caches made by the real CLI:
// it runs the cached winner or, on a miss, the preferred candidate, and never measures or
// writes anything.

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "cli/spvtune_run.hpp"

namespace shipped_cache_test {

using spvtune::test::contains;
using spvtune::test::SpvtuneRun;
using spvtune::tune::testing::read_bytes;
using spvtune::tune::testing::TempDirectory;
using spvtune::tune::testing::write_bytes;
namespace fs = std::filesystem;

namespace {

const std::string saxpy = std::string(SPVTUNE_CONFIG_DIR) + "/saxpy.json";

/// A scratch directory; every run has the validation layer on and must not hear from it.
struct Fixture {
    TempDirectory scratch;
    fs::path caches = scratch.path() / "caches";

    Fixture() { ::setenv("SPVTUNE_VALIDATION", "1", 1); }
    ~Fixture() { ::unsetenv("SPVTUNE_VALIDATION"); }
    Fixture(const Fixture&) = delete;
    Fixture& operator=(const Fixture&) = delete;

    SpvtuneRun checked(SpvtuneRun run) {
        CHECK_MESSAGE(!contains(run.err, "validation"), run.err);
        return run;
    }

    /// `spvtune tune` of one saxpy key into `directory`, with few samples (lavapipe is slow).
    void tune(const fs::path& directory, const std::string& key) {
        const SpvtuneRun run = checked(spvtune::test::run_spvtune(
            scratch, {"tune", saxpy, "--key", key, "--cache-dir", directory.string(), "--samples",
                      "3", "--min-samples", "2", "--warmup", "1"}));
        REQUIRE_MESSAGE(run.exit_code == 0, run.out, run.err);
    }

    /// The candidate `spvtune tune --compile-only` runs for `key`: the first that works in
    /// priority then registration order, which is what a never-tune miss must run too.
    std::string preferred_candidate(const std::string& key) {
        const fs::path report = scratch.path() / "compile-only.json";
        const SpvtuneRun run = checked(spvtune::test::run_spvtune(
            scratch, {"tune", saxpy, "--key", key, "--compile-only", "--cache-dir",
                      (scratch.path() / "compile-only").string(), "--json", report.string()}));
        REQUIRE_MESSAGE(run.exit_code == 0, run.out, run.err);
        const auto keys = nlohmann::json::parse(read_bytes(report)).at("problems").at(0).at("keys");
        REQUIRE(keys.size() == 1);
        return keys.at(0).at("ran").get<std::string>();
    }

    SpvtuneRun example(const fs::path& directory, const std::string& key,
                       std::vector<std::string> extra = {}) {
        std::vector<std::string> args{saxpy, "--caches", directory.string(), "--key", key};
        args.insert(args.end(), extra.begin(), extra.end());
        return checked(spvtune::test::run_program(SPVTUNE_EXAMPLE_SHIPPED_CACHE, scratch, args));
    }
};

/// Names and contents of every file in `directory`, to show a run left it as it was.
std::vector<std::pair<std::string, std::string>> snapshot(const fs::path& directory) {
    std::vector<std::pair<std::string, std::string>> files;
    for (const auto& entry : fs::directory_iterator(directory)) {
        files.emplace_back(entry.path().filename().string(), read_bytes(entry.path()));
    }
    std::sort(files.begin(), files.end());
    return files;
}

fs::path only_cache_file(const fs::path& directory) {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(directory)) {
        if (entry.path().extension() == ".json") {
            files.push_back(entry.path());
        }
    }
    REQUIRE(files.size() == 1);
    return files.front();
}

/// The winner the cache file records for its only saxpy entry.
std::string recorded_winner(const fs::path& file) {
    const auto lists = nlohmann::json::parse(read_bytes(file)).at("tuners").at("saxpy");
    REQUIRE(lists.size() == 1);
    const auto& entries = lists.begin()->at("entries");
    REQUIRE(entries.size() == 1);
    return entries.begin()->at("winner").at("name").get<std::string>();
}

/// Nothing in the output may come from measuring: no tuning events, no samples.
void check_measured_nothing(const SpvtuneRun& run) {
    for (const char* word : {"tuning", "sample", "measur"}) {
        CHECK_MESSAGE(!contains(run.out + run.err, word), word, run.out, run.err);
    }
}

/// A run that missed `tuning_key` and ran `preferred` without tuning, as the example reports it.
void check_ran_untuned(const SpvtuneRun& run, const std::string& preferred,
                       const std::string& tuning_key) {
    CHECK_MESSAGE(run.exit_code == 0, run.out, run.err);
    CHECK_MESSAGE(contains(run.out, "cache miss: ran the preferred candidate " + preferred +
                                        " (not tuned)\n"),
                  run.out);
    CHECK_MESSAGE(contains(run.err, "untuned miss: key " + tuning_key + ", " + preferred + "\n"),
                  run.err);
    check_measured_nothing(run);
}

}  // namespace

TEST_CASE("the example runs the winner of a cache made by spvtune tune, leaving it untouched") {
    Fixture f;
    f.tune(f.caches, "n=65536");
    const fs::path file = only_cache_file(f.caches);
    const std::string winner = recorded_winner(file);
    const auto before = snapshot(f.caches);

    const SpvtuneRun run = f.example(f.caches, "n=65536");
    CHECK_MESSAGE(run.exit_code == 0, run.out, run.err);
    CHECK_MESSAGE(contains(run.out, "cache file: " + file.string() + " (exact match)\n"), run.out);
    CHECK_MESSAGE(contains(run.out, "cache hit: ran " + winner + "\n"), run.out);
    CHECK_MESSAGE(contains(run.err, "store hit: key n=65536, " + winner), run.err);
    check_measured_nothing(run);
    CHECK(snapshot(f.caches) == before);
}

TEST_CASE("a key the shipped cache lacks runs the preferred candidate, not tuned, not recorded") {
    Fixture f;
    f.tune(f.caches, "n=65536");
    const auto before = snapshot(f.caches);
    const std::string preferred = f.preferred_candidate("n=1000");

    const SpvtuneRun run = f.example(f.caches, "n=1000");
    CHECK_MESSAGE(contains(run.out, "(exact match)\n"), run.out);
    check_ran_untuned(run, preferred, "n=1024");  // n=1000's bucket
    CHECK(snapshot(f.caches) == before);
}

TEST_CASE("with no cache for the device every key runs the preferred candidate") {
    Fixture f;
    fs::create_directories(f.caches);
    const std::string preferred = f.preferred_candidate("n=65536");

    const SpvtuneRun run = f.example(f.caches, "n=65536");
    CHECK_MESSAGE(contains(run.out, "cache file: none for "), run.out);
    check_ran_untuned(run, preferred, "n=65536");
    CHECK(fs::is_empty(f.caches));
}

TEST_CASE("a cache tuned with another driver is used only with --allow-driver-mismatch") {
    Fixture f;
    const fs::path tuned = f.scratch.path() / "tuned";
    f.tune(tuned, "n=65536");
    const fs::path made = only_cache_file(tuned);
    const std::string winner = recorded_winner(made);
    // The same device with an older driver: the cache a release shipped before a driver update.
    auto document = nlohmann::json::parse(read_bytes(made));
    document["hardware"]["driver_version"] = "0.0.1-shipped";
    document["hardware"]["key"] = "shipped-with-old-driver";
    fs::create_directories(f.caches);
    const fs::path shipped = f.caches / "shipped-with-old-driver.json";
    write_bytes(shipped, document.dump(2) + "\n");
    const auto before = snapshot(f.caches);

    const SpvtuneRun refused = f.example(f.caches, "n=65536");
    CHECK_MESSAGE(contains(refused.out, "cache file: none for "), refused.out);
    check_ran_untuned(refused, f.preferred_candidate("n=65536"), "n=65536");

    const SpvtuneRun allowed = f.example(f.caches, "n=65536", {"--allow-driver-mismatch"});
    CHECK_MESSAGE(allowed.exit_code == 0, allowed.out, allowed.err);
    CHECK_MESSAGE(contains(allowed.out, "cache file: " + shipped.string() +
                                            " (driver mismatch: tuned with driver 0.0.1-shipped"),
                  allowed.out);
    CHECK_MESSAGE(contains(allowed.out, "cache hit: ran " + winner + "\n"), allowed.out);
    check_measured_nothing(allowed);
    CHECK(snapshot(f.caches) == before);
}

TEST_CASE("a key naming no parameter of the problem is an error") {
    Fixture f;
    const SpvtuneRun run = f.example(f.caches, "m=4096");
    CHECK(run.exit_code == 1);
    CHECK_MESSAGE(contains(run.err, "--key m=4096: expected name=value"), run.err);
    CHECK(run.out.empty());
}

}  // namespace shipped_cache_test
