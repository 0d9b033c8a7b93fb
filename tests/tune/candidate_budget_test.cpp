// The per-candidate budget: a candidate stops sampling once its samples add up to the budget
// of measured time (batches counted whole), keeps its samples and still ranks.
#include <chrono>
#include <cstddef>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/tune/benchmark.hpp>

#include "tune/fakes.hpp"

namespace candidate_budget_test {

using namespace spvtune::tune;

namespace {

struct Steady {
    std::vector<Sample> per_candidate;
    std::vector<int> calls = std::vector<int>(per_candidate.size(), 0);

    SampleSource source() {
        return [this](std::size_t index) -> Result<Sample> {
            ++calls[index];
            return per_candidate[index];
        };
    }
};

SamplingSettings budget_of(std::chrono::milliseconds budget) {
    SamplingSettings settings = SamplingSettings::fixed(1, 20);
    settings.candidate_budget = budget;
    return settings;
}

}  // namespace

TEST_CASE("a candidate stops sampling once its samples measured the candidate budget") {
    // a: 1 ms per sample (a batch of 10 dispatches of 100 us); b: 10 us per sample.
    Steady script{{Sample{100'000, TimingMethod::device_timestamps, 10},
                   Sample{10'000, TimingMethod::device_timestamps, 1}}};
    const auto list = fakes::benchmark_candidates({"a", "b"});
    const BenchmarkOutcome outcome =
        run_benchmark(list, budget_of(std::chrono::milliseconds(5)), script.source());
    CHECK(script.calls[0] == 1 + 5);   // one warm-up, then 5 samples of 1 ms
    CHECK(script.calls[1] == 1 + 20);  // 0.2 ms in all: never capped
    REQUIRE(outcome.ranking.size() == 2);
    CHECK(outcome.ranking[0].name == "b");
    CHECK(outcome.ranking[1].name == "a");
    CHECK(outcome.ranking[1].statistics.samples == 5);
    CHECK_FALSE(outcome.ranking[1].eliminated);
}

TEST_CASE("a candidate capped by its budget still wins on its median when the others settle") {
    // fast: 1 ms per sample (10,000 runs of 100 ns), capped after 5; b and c, 200 and 300 ns a
    // run, race on until b settles against c. fast took no part in that, and is the fastest.
    Steady script{{Sample{100, TimingMethod::device_timestamps, 10'000},
                   Sample{200, TimingMethod::device_timestamps, 1},
                   Sample{300, TimingMethod::device_timestamps, 1}}};
    const auto list = fakes::benchmark_candidates({"fast", "b", "c"});
    SamplingSettings settings;
    settings.candidate_budget = std::chrono::milliseconds(5);
    const BenchmarkOutcome outcome = run_benchmark(list, settings, script.source());
    REQUIRE(outcome.ranking.size() == 3);
    CHECK(outcome.ranking[0].name == "fast");
    CHECK(outcome.ranking[0].statistics.samples == 5);
    CHECK(outcome.ranking[1].name == "b");
    CHECK(outcome.ranking[1].statistics.samples < 60);
}

TEST_CASE("without a candidate budget every sample is taken") {
    Steady script{{Sample{100'000, TimingMethod::device_timestamps, 10},
                   Sample{10'000, TimingMethod::device_timestamps, 1}}};
    const auto list = fakes::benchmark_candidates({"a", "b"});
    SamplingSettings settings = SamplingSettings::fixed(1, 20);
    settings.candidate_budget.reset();
    static_cast<void>(run_benchmark(list, settings, script.source()));
    CHECK(script.calls[0] == 21);
}

TEST_CASE("the candidate budget survives the settings' JSON form, null meaning no cap") {
    SamplingSettings capped;
    capped.candidate_budget = std::chrono::milliseconds(2500);
    const nlohmann::json json = capped;
    CHECK(json.at("candidate_budget_ms") == 2500);
    CHECK(json.get<SamplingSettings>() == capped);

    SamplingSettings uncapped;
    uncapped.candidate_budget.reset();
    const nlohmann::json none = uncapped;
    CHECK(none.at("candidate_budget_ms").is_null());
    CHECK(none.get<SamplingSettings>() == uncapped);

    // Entries written before the cap existed read back with the default cap.
    nlohmann::json older = none;
    older.erase("candidate_budget_ms");
    CHECK(older.get<SamplingSettings>().candidate_budget == SamplingSettings{}.candidate_budget);
}

}  // namespace candidate_budget_test
