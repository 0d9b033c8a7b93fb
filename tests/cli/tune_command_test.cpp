#include <csignal>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "cache/subprocess.hpp"
#include "tune_fixture.hpp"

namespace tune_command_test {

using namespace spvtune::test;
using spvtune::tune::testing::read_bytes;
using spvtune::tune::testing::TempDirectory;
using spvtune::tune::testing::write_bytes;
namespace fs = std::filesystem;

TEST_CASE("tune: the fast correct candidate wins, the wrong and the half writer are rejected" *
          doctest::test_suite("timing")) {
    TuneFixture fixture;
    const SpvtuneRun run = fixture.tune("scale.json");
    REQUIRE_MESSAGE(run.exit_code == 0, run.out << run.err);
    for (const auto& key : fixture.keys()) {
        CHECK(key.at("status") == "tuned");
        CHECK(key.at("winner") == "fast");
        const auto& wrong = candidate(key, "wrong");
        CHECK(wrong.at("status") == "wrong output");
        // The first element whose value 3x differs from 2x, expected vs got.
        CHECK(contains(wrong.at("reason").get<std::string>(), "y["));
        CHECK(contains(wrong.at("reason").get<std::string>(), "expected"));
        // Every element is 3/2 of the reference's: all of them differ, each by half.
        CHECK(contains(wrong.at("reason").get<std::string>(), "elements of y differ, at 0, 1, 2,"));
        CHECK(contains(wrong.at("reason").get<std::string>(), "largest relative error 0.5"));
        const auto& half = candidate(key, "half");
        CHECK(half.at("status") == "wrong output");
        CHECK(contains(half.at("reason").get<std::string>(), "never written"));
        const auto& fast = candidate(key, "fast");
        CHECK(fast.at("rank") == 1);
        CHECK(fast.at("samples_ns").size() >= 3);
        for (const char* ranked : {"fast", "slow"}) {
            // Warm-ups may run past the set count (adaptive); they never count as samples. The
            // checked run is timed like a sample, and the key's answer runs once more to give
            // its output.
            const auto& c = candidate(key, ranked);
            CHECK(c.at("samples_ns").size() == c.at("statistics").at("samples").get<std::size_t>());
            REQUIRE(c.at("output_runs_ns").size() == (key.at("ran") == ranked ? 2U : 1U));
            CHECK(c.at("output_runs_ns").at(0).get<double>() > 0);
            // The one warm-up set (scale.json) calibrates the batch, so it is measured.
            CHECK(c.at("warmup_ns").size() >= 1);
        }
        CHECK(fast.at("timing_method") == "device_timestamps");  // as in the cache file
        CHECK(candidate(key, "slow").at("statistics").at("median_ns").get<double>() >
              fast.at("statistics").at("median_ns").get<double>());
    }
    CHECK(contains(run.out, "winner fast"));
    CHECK(contains(run.out, "wrong output"));
    REQUIRE(fixture.cache_files().size() == 1);
    const auto cache = nlohmann::json::parse(read_bytes(fixture.cache_files().front()));
    CHECK(contains(cache.dump(), "\"fast\""));
}

TEST_CASE("tune: a second run is all cache hits and measures nothing, --retune measures again" *
          doctest::test_suite("timing")) {
    TuneFixture fixture;
    REQUIRE(fixture.tune("scale.json").exit_code == 0);
    const std::string cache_after_first = read_bytes(fixture.cache_files().at(0));

    const SpvtuneRun second = fixture.tune("scale.json");
    REQUIRE(second.exit_code == 0);
    for (const auto& key : fixture.keys()) {
        CHECK(key.at("status") == "cached");
        CHECK(key.at("winner") == "fast");
        CHECK_FALSE(measured_anything(key));
    }
    CHECK(contains(second.out, "cached, winner fast"));
    CHECK(read_bytes(fixture.cache_files().at(0)) == cache_after_first);

    const SpvtuneRun third = fixture.tune("scale.json", {"--retune", "--key", "n=16384"});
    REQUIRE(third.exit_code == 0);
    const auto keys = fixture.keys();
    REQUIRE(keys.size() == 1);
    CHECK(keys[0].at("status") == "tuned");
    CHECK(measured_anything(keys[0]));
    CHECK(keys[0].at("winner") == "fast");
    CHECK(read_bytes(fixture.cache_files().at(0)) != cache_after_first);
}

TEST_CASE("tune --retune measures a shared bucket once and leaves its entry settled" *
          doctest::test_suite("timing")) {
    // n=16000 and n=16384 share the entry of bucket 16384: the second key is answered by the
    // first one's fresh result, and the file must not keep the re-tune mark.
    TuneFixture fixture;
    REQUIRE(fixture.tune("shared_bucket.json").exit_code == 0);
    const SpvtuneRun retuned = fixture.tune("shared_bucket.json", {"--retune"});
    REQUIRE_MESSAGE(retuned.exit_code == 0, retuned.err);
    const auto keys = fixture.keys();
    REQUIRE(keys.size() == 2);
    CHECK(keys[0].at("status") == "tuned");
    CHECK(keys[1].at("status") == "cached");
    CHECK(keys[1].at("winner") == "fast");
    REQUIRE(fixture.cache_files().size() == 1);
    const std::string cache = read_bytes(fixture.cache_files().at(0));
    CHECK_FALSE(contains(cache, "\"needs_retune\": true"));

    const SpvtuneRun third = fixture.tune("shared_bucket.json");
    REQUIRE(third.exit_code == 0);
    for (const auto& key : fixture.keys()) {
        CHECK(key.at("status") == "cached");
    }
}

TEST_CASE("tune --compile-only compiles every candidate and records nothing") {
    TuneFixture fixture;
    const SpvtuneRun run = fixture.tune("scale.json", {"--compile-only"});
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    for (const auto& key : fixture.keys()) {
        CHECK(key.at("status") == "compiled");
        CHECK_FALSE(measured_anything(key));
    }
    for (const fs::path& file : fixture.cache_files()) {
        CHECK_FALSE(contains(read_bytes(file), "\"winner\""));
    }
}

TEST_CASE("tune: a key no candidate can run fails the run with its reason, others still tune") {
    TuneFixture fixture;
    const SpvtuneRun run = fixture.tune("unrunnable.json");
    CHECK(run.exit_code == 1);
    const auto keys = fixture.keys();
    REQUIRE(keys.size() == 2);
    CHECK(keys[0].at("status") == "failed");
    CHECK(contains(keys[0].at("error").get<std::string>(), "n % 64 == 0"));
    CHECK(keys[1].at("status") == "tuned");
    CHECK(contains(run.out + run.err, "FAILED"));
}

TEST_CASE("tune: with a list of references each key is checked against the first that runs it") {
    TuneFixture fixture;
    const SpvtuneRun run = fixture.tune("reference_list.json");
    REQUIRE_MESSAGE(run.exit_code == 0, run.out << run.err);
    const auto keys = fixture.keys();
    REQUIRE(keys.size() == 2);
    CHECK(keys[0].at("reference") == "single");
    CHECK(contains(candidate(keys[0], "wrong").at("reason").get<std::string>(),
                   "differs from 'single': "));
    CHECK(keys[1].at("reference") == "fast");
    CHECK(candidate(keys[1], "single").at("status") == "skipped");
    CHECK(contains(candidate(keys[1], "wrong").at("reason").get<std::string>(),
                   "differs from 'fast': "));
    CHECK(contains(run.out, "checked against single"));
    CHECK(contains(run.out, "checked against fast"));
}

TEST_CASE("tune: an invalid problem file exits 2 before touching the cache") {
    TuneFixture fixture;
    REQUIRE(fixture.tune("scale.json", {"--key", "n=16384"}).exit_code == 0);
    const fs::path cache_file = fixture.cache_files().at(0);
    const std::string before = read_bytes(cache_file);

    const fs::path broken = fixture.scratch.path() / "broken.json";
    write_bytes(broken, "{\"name\": \"scale-test\", \"parameters\": {\n");
    const SpvtuneRun run = spvtune::test::run_spvtune(
        fixture.scratch, {"tune", broken.string(), "--cache-dir", fixture.cache.string()});
    CHECK(run.exit_code == 2);
    CHECK(contains(run.err, "broken.json"));
    CHECK(contains(run.err, "syntax error"));
    CHECK(read_bytes(cache_file) == before);
}

TEST_CASE("tune --key selects keys, and a filter matching nothing is a usage error") {
    TuneFixture fixture;
    const SpvtuneRun one = fixture.tune("scale.json", {"--key", "n=32768"});
    REQUIRE(one.exit_code == 0);
    REQUIRE(fixture.keys().size() == 1);
    CHECK(fixture.keys()[0].at("key").at("n") == 32768);

    const SpvtuneRun none = fixture.tune("scale.json", {"--key", "n=5"});
    CHECK(none.exit_code == 2);
    CHECK(contains(none.err, "no key matches --key n=5"));
    const SpvtuneRun bad = fixture.tune("scale.json", {"--key", "n"});
    CHECK(bad.exit_code == 2);
    CHECK(contains(bad.err, "expected name=value"));
}

TEST_CASE("tune: Ctrl-C stops between keys and keeps every finished key in the cache" *
          doctest::test_suite("timing")) {
    TuneFixture fixture;
    const fs::path err_file = fixture.scratch.path() / "interrupted.err";
    spvtune::tune::testing::Subprocess child(
        {SPVTUNE_BINARY, "tune", problems + "/many_keys.json", "--cache-dir",
         fixture.cache.string(), "--kernel-dir", SPVTUNE_CLI_TEST_KERNEL_DIR},
        err_file);
    // The first key's report is flushed as soon as it is done; interrupt right after it.
    std::string line;
    for (int i = 0; i < 100 && !contains(line, "tuned in"); ++i) {
        line = child.read_line();
    }
    REQUIRE(contains(line, "tuned in"));
    child.send(SIGINT);
    const std::string rest = child.read_stdout();
    CHECK(child.wait() == 130);
    const std::string err = read_bytes(err_file);
    CHECK(contains(err, "stopping after the key in progress; press Ctrl-C again to abandon it"));
    CHECK(contains(err, "interrupted after"));
    CHECK(contains(err, "every finished key is in the cache"));

    REQUIRE(fixture.cache_files().size() == 1);
    const auto cache = nlohmann::json::parse(read_bytes(fixture.cache_files().front()));
    const auto& entries = cache.at("tuners").at("many-keys-test").begin()->at("entries");
    CHECK(entries.size() >= 1);
    CHECK(entries.size() < 8);  // it stopped early
}

}  // namespace tune_command_test
