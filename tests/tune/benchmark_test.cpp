#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/tune/benchmark.hpp>

#include "tune/fakes.hpp"

namespace benchmark_test {

using namespace spvtune::tune;

namespace {

/// Scripted sample times per candidate index: base + jitter * noise pattern, the pattern's phase
/// differing per candidate (noise they all shared in a round would cancel in the race's paired
/// ratios, and the candidates would be told apart however large it is); counts calls.
struct Script {
    std::vector<double> base;
    std::vector<double> jitter;
    std::vector<int> calls = std::vector<int>(base.size(), 0);
    std::vector<std::optional<std::string>> error_after =
        std::vector<std::optional<std::string>>(base.size());
    int error_at_call = 0;

    SampleSource source() {
        return [this](std::size_t index) -> Result<Sample> {
            const int n = calls[index]++;
            if (error_after[index] && n >= error_at_call) {
                return fail(*error_after[index]);
            }
            const auto phase = static_cast<std::size_t>(n) + 5 * index;
            return Sample{base[index] + jitter[index] * fakes::noise(phase),
                          TimingMethod::device_timestamps};
        };
    }
};

std::vector<BenchmarkCandidate> candidates(std::size_t n) {
    const std::vector<const char*> names{"a", "b", "c", "d"};
    return fakes::benchmark_candidates({names.begin(), names.begin() + static_cast<long>(n)});
}

const RankedCandidate& named(const BenchmarkOutcome& outcome, const std::string& name) {
    for (const RankedCandidate& ranked : outcome.ranking) {
        if (ranked.name == name) {
            return ranked;
        }
    }
    FAIL("no candidate named " << name);
    throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE("well separated timings: the true winner wins, the far slower one is eliminated") {
    Script script{{200, 100, 1000}, {2, 2, 2}};
    const auto list = candidates(3);
    const BenchmarkOutcome outcome =
        run_benchmark(list, fakes::adaptive_sampling(8, 40), script.source());
    REQUIRE(outcome.ranking.size() == 3);
    CHECK(outcome.ranking[0].name == "b");
    CHECK(outcome.ranking[1].name == "a");
    CHECK(outcome.ranking[2].name == "c");
    // c was cut at the first decision, but that decision also ended the race: it got every
    // sample the winner got, so it was not stopped early.
    CHECK_FALSE(named(outcome, "c").eliminated);
    CHECK(named(outcome, "c").statistics.samples == 8);
    CHECK_FALSE(named(outcome, "a").eliminated);
    CHECK_FALSE(named(outcome, "a").tied_with_winner);
    CHECK(outcome.ranking[0].statistics.median_ns == doctest::Approx(100).epsilon(0.02));
    CHECK(outcome.ranking[0].method == TimingMethod::device_timestamps);
    CHECK(outcome.failures.empty());
    // Clearly separated from the start: sampling stops at the minimum.
    CHECK(outcome.ranking[0].statistics.samples == 8);
}

TEST_CASE("elimination stops measuring a far slower candidate while close ones continue") {
    Script script{{100, 103, 1000}, {10, 10, 10}};
    const auto list = candidates(3);
    const BenchmarkOutcome outcome =
        run_benchmark(list, fakes::adaptive_sampling(8, 40), script.source());
    REQUIRE(outcome.ranking.size() == 3);
    CHECK(outcome.ranking[0].name == "a");
    const RankedCandidate& slow = named(outcome, "c");
    CHECK(slow.eliminated);
    CHECK(slow.statistics.samples == 8);
    CHECK(named(outcome, "a").statistics.samples > 8);
    CHECK(script.calls[2] == 1 + 8);  // one warm-up, then only the samples before elimination
}

TEST_CASE("a candidate whose interval lies wholly above the leader's is eliminated") {
    // c is only 1.4x slower, but the intervals do not overlap: the difference is real and
    // sampling c further could not make it the winner.
    Script script{{100, 103, 140}, {10, 10, 10}};
    const auto list = candidates(3);
    const BenchmarkOutcome outcome =
        run_benchmark(list, fakes::adaptive_sampling(8, 40), script.source());
    const RankedCandidate& slower = named(outcome, "c");
    CHECK(slower.eliminated);
    CHECK(slower.statistics.samples == 8);
    CHECK(named(outcome, "a").statistics.samples > 8);
    CHECK(outcome.ranking.back().name == "c");
}

TEST_CASE("a candidate cut in the last round got every sample and is not called eliminated") {
    // min_samples == samples (the shipped configs' default): the only decision is in the last
    // round, so nothing can be stopped early.
    Script script{{100, 103, 1000}, {10, 10, 10}};
    const auto list = candidates(3);
    const BenchmarkOutcome outcome =
        run_benchmark(list, fakes::adaptive_sampling(10, 10), script.source());
    REQUIRE(outcome.ranking.size() == 3);
    for (const RankedCandidate& ranked : outcome.ranking) {
        CAPTURE(ranked.name);
        CHECK(ranked.statistics.samples == 10);
        CHECK_FALSE(ranked.eliminated);
    }
    CHECK(outcome.ranking.back().name == "c");
}

TEST_CASE("a race settled at the first decision stops everyone there: no one is eliminated") {
    // b and c are both far slower; one is cut (two always stay live), and the same decision
    // settles the race, so every candidate ends with the same samples.
    Script script{{100, 1000, 1000}, {1, 1, 1}};
    const auto list = candidates(3);
    const BenchmarkOutcome outcome =
        run_benchmark(list, fakes::adaptive_sampling(6, 30), script.source());
    for (const RankedCandidate& ranked : outcome.ranking) {
        CHECK(ranked.statistics.samples == 6);
        CHECK_FALSE(ranked.eliminated);
    }
    CHECK(script.calls == std::vector<int>{7, 7, 7});
    CHECK(outcome.ranking[0].name == "a");
}

TEST_CASE("two candidates within noise are reported as tied") {
    Script script{{100, 100.5}, {4, 4}};
    const auto list = candidates(2);
    const BenchmarkOutcome outcome =
        run_benchmark(list, fakes::adaptive_sampling(8, 30), script.source());
    REQUIRE(outcome.ranking.size() == 2);
    CHECK(outcome.ranking[1].tied_with_winner);
    CHECK_FALSE(outcome.ranking[0].tied_with_winner);
    CHECK_FALSE(outcome.ranking[1].eliminated);
}

TEST_CASE("an exact tie of medians goes to the higher priority, then the lower index") {
    Script script{{100, 100, 100}, {0, 0, 0}};
    std::vector<BenchmarkCandidate> list = candidates(3);
    BenchmarkOutcome outcome = run_benchmark(list, fakes::adaptive_sampling(6, 6), script.source());
    CHECK(outcome.ranking[0].name == "a");
    CHECK(outcome.ranking[1].name == "b");
    list[2].priority = 5;
    outcome = run_benchmark(list, fakes::adaptive_sampling(6, 6), script.source());
    CHECK(outcome.ranking[0].name == "c");
    CHECK(outcome.ranking[1].tied_with_winner);
}

TEST_CASE("fixed mode takes exactly W warm-ups and N samples per candidate") {
    Script script{{100, 300, 5000}, {1, 1, 1}};
    const auto list = candidates(3);
    const BenchmarkOutcome outcome =
        run_benchmark(list, SamplingSettings::fixed(3, 12), script.source());
    CHECK(script.calls == std::vector<int>{15, 15, 15});
    for (const RankedCandidate& ranked : outcome.ranking) {
        CHECK(ranked.statistics.samples == 12);
        CHECK_FALSE(ranked.eliminated);
    }
    CHECK(outcome.ranking[0].name == "a");
}

TEST_CASE("adaptive sampling stops at the maximum when candidates stay indistinguishable") {
    Script script{{100, 100.2}, {30, 30}};  // wide noise: intervals overlap and stay wide
    const auto list = candidates(2);
    const BenchmarkOutcome outcome =
        run_benchmark(list, fakes::adaptive_sampling(6, 20), script.source());
    CHECK(outcome.ranking[0].statistics.samples == 20);
    CHECK(outcome.ranking[1].statistics.samples == 20);
}

TEST_CASE("a time budget ends sampling after the round in which it runs out") {
    Script script{{100, 100.2}, {30, 30}};
    SamplingSettings settings = fakes::adaptive_sampling(6, 50);
    settings.time_budget = std::chrono::milliseconds(0);
    const auto list = candidates(2);
    const BenchmarkOutcome outcome = run_benchmark(list, settings, script.source());
    CHECK(outcome.ranking[0].statistics.samples == 1);
    CHECK(outcome.ranking[1].statistics.samples == 1);
}

TEST_CASE("a candidate whose sample fails is dropped with its reason") {
    Script script{{100, 50, 300}, {1, 1, 1}};
    script.error_after[1] = "out of memory";
    script.error_at_call = 3;  // warm-up and two samples succeed, the third fails
    const auto list = candidates(3);
    const BenchmarkOutcome outcome =
        run_benchmark(list, fakes::adaptive_sampling(6, 20), script.source());
    REQUIRE(outcome.failures.size() == 1);
    CHECK(outcome.failures[0].name == "b");
    CHECK(outcome.failures[0].kind == FailureKind::error);
    CHECK(outcome.failures[0].reason == "sample 3: out of memory");
    REQUIRE(outcome.ranking.size() == 2);
    CHECK(outcome.ranking[0].name == "a");
}

TEST_CASE("a candidate whose warm-up fails is dropped before sampling") {
    Script script{{100, 50}, {1, 1}};
    script.error_after[1] = "unsupported";
    const auto list = candidates(2);
    const BenchmarkOutcome outcome =
        run_benchmark(list, fakes::adaptive_sampling(6, 20), script.source());
    REQUIRE(outcome.failures.size() == 1);
    CHECK(outcome.failures[0].reason == "warm-up: unsupported");
    CHECK(script.calls[1] == 1);
    REQUIRE(outcome.ranking.size() == 1);
    CHECK(outcome.ranking[0].name == "a");
}

}  // namespace benchmark_test
