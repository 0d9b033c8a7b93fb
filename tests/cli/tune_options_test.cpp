// tune's sampling and selection options: the same rules as a problem file's settings.
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "tune_fixture.hpp"

namespace tune_options_test {

using namespace spvtune::test;

namespace {

/// `args` for a tune run in a worker, or in this process with `in_process`.
std::vector<std::string> run_in(bool in_process, std::vector<std::string> args) {
    if (in_process) {
        args.emplace_back("--in-process");
    }
    return args;
}

}  // namespace

TEST_CASE("tune: min_samples above samples is an error on the command line as in a file") {
    TuneFixture fixture;
    const SpvtuneRun both = fixture.tune("scale.json", {"--min-samples", "5", "--samples", "3"});
    CHECK(both.exit_code == 2);
    CHECK_MESSAGE(contains(both.err,
                           "spvtune: error: expected min_samples <= samples, found "
                           "--min-samples 5 > --samples 3"),
                  both.err);
    // scale.json sets min_samples 5: a smaller --samples contradicts the file.
    const SpvtuneRun mixed = fixture.tune("scale.json", {"--samples", "3"});
    CHECK(mixed.exit_code == 2);
    CHECK_MESSAGE(contains(mixed.err,
                           "scale.json: expected min_samples <= samples, found the "
                           "file's min_samples 5 > --samples 3"),
                  mixed.err);
    CHECK(fixture.cache_files().empty());
}

TEST_CASE("tune --min-sample-ms 0 is accepted (one dispatch per sample), a negative one is not") {
    TuneFixture fixture;
    const SpvtuneRun zero =
        fixture.tune("scale.json", {"--key", "n=16384", "--min-sample-ms", "0"});
    REQUIRE_MESSAGE(zero.exit_code == 0, zero.err);
    CHECK(fixture.report_json().at("problems").at(0).at("min_sample_ms") == 0.0);
    const SpvtuneRun negative = fixture.tune("scale.json", {"--min-sample-ms", "-1"});
    CHECK(negative.exit_code == 2);
}

TEST_CASE("tune: --key and --kernel-dir take one value each, so files may follow them") {
    TuneFixture fixture;
    const SpvtuneRun run = run_spvtune(
        fixture.scratch, {"tune", "--key", "n=16384", "--kernel-dir", SPVTUNE_CLI_TEST_KERNEL_DIR,
                          problems + "/scale.json", "--cache-dir", fixture.cache.string(), "--json",
                          fixture.report.string()});
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    REQUIRE(fixture.keys().size() == 1);
    CHECK(fixture.keys()[0].at("key").at("n") == 16384);
}

TEST_CASE("tune --time-budget below a millisecond is kept as 1 ms, never as no time at all") {
    TuneFixture fixture;
    const SpvtuneRun run =
        fixture.tune("scale.json", {"--key", "n=16384", "--time-budget", "0.0001"});
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    CHECK(fixture.report_json().at("problems").at(0).at("settings").at("time_budget_ms") == 1);
}

TEST_CASE("tune --indifference sets the race's indifference over the file's, as a fraction") {
    TuneFixture fixture;
    auto json = nlohmann::json::parse(spvtune::tune::testing::read_bytes(problems + "/scale.json"));
    json["settings"]["indifference_percent"] = 7;
    const auto file = fixture.scratch.path() / "scale.json";
    spvtune::tune::testing::write_bytes(file, json.dump());
    const std::vector<std::string> args{"tune",         file.string(),
                                        "--cache-dir",  fixture.cache.string(),
                                        "--kernel-dir", SPVTUNE_CLI_TEST_KERNEL_DIR,
                                        "--key",        "n=16384",
                                        "--json",       fixture.report.string()};
    const SpvtuneRun from_file = run_spvtune(fixture.scratch, args);
    REQUIRE_MESSAGE(from_file.exit_code == 0, from_file.err);
    const auto indifference = [&] {
        return fixture.report_json().at("problems").at(0).at("settings").at("indifference");
    };
    CHECK(indifference().get<double>() == doctest::Approx(0.07));

    auto overridden = args;
    overridden.insert(overridden.end(), {"--retune", "--indifference", "0"});
    const SpvtuneRun from_option = run_spvtune(fixture.scratch, overridden);
    REQUIRE_MESSAGE(from_option.exit_code == 0, from_option.err);
    CHECK(indifference().get<double>() == 0.0);

    overridden.back() = "100";
    const SpvtuneRun refused = run_spvtune(fixture.scratch, overridden);
    CHECK(refused.exit_code == 2);
    CHECK(contains(refused.err, "expected a percentage from 0 to below 100, found 100"));
}

TEST_CASE("tune --candidate-budget is the cap the report's settings hold, in milliseconds") {
    TuneFixture fixture;
    const SpvtuneRun run =
        fixture.tune("scale.json", {"--key", "n=16384", "--candidate-budget", "0.25"});
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    CHECK(fixture.report_json().at("problems").at(0).at("settings").at("candidate_budget_ms") ==
          250);
    const SpvtuneRun zero = fixture.tune("scale.json", {"--candidate-budget", "0"});
    CHECK(zero.exit_code == 2);
}

TEST_CASE(
    "tune: a race counts each candidate's checked run as its first warm-up, when two or "
    "more are set") {
    for (const bool in_process : {false, true}) {
        for (const int warmups : {2, 3}) {
            CAPTURE(in_process);
            CAPTURE(warmups);
            TuneFixture fixture;
            const SpvtuneRun run = fixture.tune(
                "scale.json",
                run_in(in_process, {"--key", "n=16384", "--retune", "--fixed", "--warmup",
                                    std::to_string(warmups), "--samples", "6"}));
            REQUIRE_MESSAGE(run.exit_code == 0, run.err);
            const nlohmann::json key = fixture.keys().at(0);
            const std::vector<nlohmann::json> raced = candidates_with(key, "rank");
            for (const nlohmann::json& candidate : raced) {
                CAPTURE(candidate.at("name"));
                CHECK(candidate.at("warmup_ns").size() == static_cast<std::size_t>(warmups - 1));
                REQUIRE(candidate.contains("output_runs_ns"));
                CHECK(candidate.at("output_runs_ns").at(0).get<double>() > 0);
                CHECK(candidate.at("samples_ns").size() == 6);
            }
            CHECK(raced.size() >= 2);
        }
    }
}

TEST_CASE(
    "tune --samples-per-submission takes each round's samples at once, in a worker and in "
    "process alike") {
    for (const bool in_process : {false, true}) {
        CAPTURE(in_process);
        TuneFixture fixture;
        const SpvtuneRun run = fixture.tune(
            "scale.json",
            run_in(in_process, {"--key", "n=16384", "--retune", "--fixed", "--warmup", "1",
                                "--samples", "7", "--samples-per-submission", "3"}));
        REQUIRE_MESSAGE(run.exit_code == 0, run.err);
        const nlohmann::json problem = fixture.report_json().at("problems").at(0);
        CHECK(problem.at("settings").at("samples_per_submission") == 3);
        const nlohmann::json key = problem.at("keys").at(0);
        const std::vector<nlohmann::json> measured = candidates_with(key, "samples_ns");
        for (const nlohmann::json& candidate : measured) {
            CAPTURE(candidate.at("name"));
            // Rounds of 3, 3 and 1: seven samples, each a time of its own, over one batch.
            CHECK(candidate.at("samples_ns").size() == 7);
            // The one warm-up asked for calibrates the batch: the checked run cannot stand in.
            CHECK(candidate.at("warmup_ns").size() == 1);
            // Checked, and the key's answer runs once more for its output.
            CHECK(candidate.at("output_runs_ns").size() ==
                  (key.at("ran") == candidate.at("name") ? 2U : 1U));
            CHECK(candidate.at("statistics").at("samples") == 7);
            for (const nlohmann::json& ns : candidate.at("samples_ns")) {
                CHECK(ns.get<double>() > 0);
            }
        }
        CHECK(measured.size() >= 2);
    }
}

TEST_CASE("tune --samples-per-submission outside 1 to 64 is refused") {
    TuneFixture fixture;
    for (const char* value : {"0", "65"}) {
        CAPTURE(value);
        const SpvtuneRun run = fixture.tune("scale.json", {"--samples-per-submission", value});
        CHECK(run.exit_code == 2);
        CHECK_MESSAGE(contains(run.err, "--samples-per-submission"), run.err);
    }
    CHECK(fixture.cache_files().empty());
}

}  // namespace tune_options_test
