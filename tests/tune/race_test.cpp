// The sampler is a race: decisions rest on real 95% intervals, the winner is one of the
// candidates still racing, and the hopeless are cut after one sample.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/tune/benchmark.hpp>
#include <spvtune/tune/statistics.hpp>

#include "tune/fakes.hpp"

namespace race_test {

using namespace spvtune::tune;

namespace {

/// Each candidate's time as a function of how often it was measured (warm-ups included).
struct Timeline {
    std::vector<std::function<double(int call)>> time;
    std::vector<int> calls = std::vector<int>(time.size(), 0);

    SampleSource source() {
        return [this](std::size_t index) -> Result<Sample> {
            return Sample{time[index](calls[index]++), TimingMethod::device_timestamps};
        };
    }
};

double jittered(double ns, int call, double relative = 0.01) {
    return ns * (1.0 + relative * fakes::noise(static_cast<std::size_t>(call)));
}

}  // namespace

TEST_CASE("an eliminated candidate never wins over the candidates still racing") {
    // a and b read 100 ns, then drift to 400 ns after their 8th sample; c, a steady 200 ns, is
    // eliminated at the first decision (round 8) and its numbers freeze there. The leaders'
    // 10% noise, each its own (noise common to a round would cancel in their ratios), keeps
    // their race open past the drift.
    auto drifting = [](int phase) {
        return [phase](int call) { return jittered(call <= 8 ? 100 : 400, call + phase, 0.1); };
    };
    Timeline timeline{{drifting(0), drifting(5), [](int call) { return jittered(200, call); }}};
    const auto candidates = fakes::benchmark_candidates({"a", "b", "c"});
    const BenchmarkOutcome outcome =
        run_benchmark(candidates, fakes::adaptive_sampling(8, 40), timeline.source());
    REQUIRE(outcome.ranking.size() == 3);
    CHECK(outcome.ranking.back().name == "c");
    CHECK(outcome.ranking.back().eliminated);
    CHECK(outcome.ranking.front().name != "c");
    CHECK_FALSE(outcome.ranking.front().eliminated);
}

TEST_CASE("no decision rests on fewer samples than a 95% interval needs") {
    CHECK(samples_for_coverage(0.95) == 6);
    // [min, max] of n samples covers 1 - 2^(1 - n): 99.2% at 8, 99.9% at 11.
    CHECK(samples_for_coverage(0.99) == 8);
    CHECK(samples_for_coverage(0.999) == 11);
    CHECK(samples_for_coverage(1.0) == 41);
    CHECK(median_interval_coverage(5) < 0.95);
    CHECK(median_interval_coverage(6) >= 0.95);
    for (const std::size_t min_samples : {1, 2, 3}) {
        CAPTURE(min_samples);
        // a is truly 99 ns but opens with three 130 ns outliers; b is a steady 105 ns.
        Timeline timeline{{[](int call) { return call >= 1 && call <= 3 ? 130.0 : 99.0; },
                           [](int) { return 105.0; }}};
        const auto candidates = fakes::benchmark_candidates({"a", "b"});
        const BenchmarkOutcome outcome =
            run_benchmark(candidates, fakes::adaptive_sampling(min_samples, 40), timeline.source());
        REQUIRE(outcome.ranking.size() == 2);
        CHECK(outcome.ranking.front().name == "a");
        CHECK(outcome.ranking.front().statistics.samples >= 6);
    }
}

TEST_CASE("a candidate far slower than the fastest is cut after its first sample") {
    Timeline timeline{{[](int call) { return jittered(1000, call); },
                       [](int call) { return jittered(25'000, call); },
                       [](int call) { return jittered(1100, call); }}};
    const auto candidates = fakes::benchmark_candidates({"fast", "hopeless", "close"});
    const BenchmarkOutcome outcome =
        run_benchmark(candidates, fakes::adaptive_sampling(10, 60), timeline.source());
    CHECK(timeline.calls[1] == 2);  // one warm-up, one sample
    REQUIRE(outcome.ranking.size() == 3);
    CHECK(outcome.ranking.back().name == "hopeless");
    CHECK(outcome.ranking.back().eliminated);
    CHECK(outcome.ranking.back().statistics.samples == 1);
    // One round is no interval, but a cut this far past the fastest is a verdict: not tied.
    CHECK_FALSE(outcome.ranking.back().tied_with_winner);
    CHECK(outcome.ranking.front().name == "fast");
}

TEST_CASE("a candidate 20 times slower is cut after one sample even when that sample reads low") {
    // Its first sample reads 14x the leader (a third under its true 20x): one noisy sample
    // must not buy a candidate this slow a full round of decisions.
    Timeline timeline{{[](int call) { return jittered(1000, call); },
                       [](int call) { return call == 1 ? 14'000.0 : 20'000.0; }}};
    const auto candidates = fakes::benchmark_candidates({"fast", "slow"});
    const BenchmarkOutcome outcome =
        run_benchmark(candidates, fakes::adaptive_sampling(10, 60), timeline.source());
    CHECK(timeline.calls[1] == 2);  // one warm-up, one sample
    REQUIRE(outcome.ranking.size() == 2);
    CHECK(outcome.ranking.back().name == "slow");
    CHECK(outcome.ranking.back().eliminated);
}

TEST_CASE("fixed sampling measures everyone to the end, the hopeless included") {
    Timeline timeline{{[](int) { return 1000.0; }, [](int) { return 25'000.0; }}};
    const auto candidates = fakes::benchmark_candidates({"fast", "hopeless"});
    const BenchmarkOutcome outcome =
        run_benchmark(candidates, SamplingSettings::fixed(1, 12), timeline.source());
    CHECK(timeline.calls[1] == 13);
    CHECK_FALSE(outcome.ranking.back().eliminated);
}

TEST_CASE("leaders practically equivalent within the indifference threshold stop the race") {
    // Medians 0.5% apart, intervals about 2% wide: inseparable in 60 samples, and irrelevant.
    Timeline timeline{{[](int call) { return 1000.0 + 8 * fakes::noise(std::size_t(call)); },
                       [](int call) { return 1005.0 + 8 * fakes::noise(std::size_t(call + 5)); }}};
    SamplingSettings settings = fakes::adaptive_sampling(6, 60);
    settings.stable_relative_width = 0.001;  // only the equivalence rule may stop this race
    settings.indifference = 0.05;
    const auto candidates = fakes::benchmark_candidates({"a", "b"});
    const BenchmarkOutcome outcome = run_benchmark(candidates, settings, timeline.source());
    REQUIRE(outcome.ranking.size() == 2);
    CHECK(outcome.ranking[0].statistics.samples < 60);
    CHECK(outcome.ranking[1].tied_with_winner);
}

TEST_CASE(
    "a noisy runner-up that cannot beat the leader by more than the threshold stops the race") {
    // The leader is steady at 1000 ns; the runner-up is 2% slower with ±6% noise, so its wide
    // interval overlaps the leader's and never narrows to the leader's width. At its best it is
    // under 2% faster than the leader: how much slower it may be does not matter to the winner.
    Timeline timeline{{[](int call) { return 1000.0 + 2 * fakes::noise(std::size_t(call)); },
                       [](int call) { return 1020.0 + 60 * fakes::noise(std::size_t(call)); }}};
    SamplingSettings settings = fakes::adaptive_sampling(10, 60);
    settings.stable_relative_width = 0.001;  // only the threshold rule may stop this race
    const auto candidates = fakes::benchmark_candidates({"steady", "noisy"});
    const BenchmarkOutcome outcome = run_benchmark(candidates, settings, timeline.source());
    REQUIRE(outcome.ranking.size() == 2);
    CHECK(outcome.ranking[0].name == "steady");
    CHECK(outcome.ranking[0].statistics.samples < 60);
    CHECK(intervals_overlap(outcome.ranking[0].statistics, outcome.ranking[1].statistics));
    CHECK(outcome.ranking[1].statistics.ci_high_ns - outcome.ranking[0].statistics.ci_low_ns >
          settings.indifference * outcome.ranking[0].statistics.median_ns);
}

TEST_CASE("a runner-up that may still be meaningfully faster keeps the race going") {
    // The same leader against a runner-up centred on it with ±20% noise: its interval reaches
    // well over 2% below the leader, so neither may be crowned yet and both are sampled on.
    Timeline timeline{{[](int call) { return 1000.0 + 2 * fakes::noise(std::size_t(call)); },
                       [](int call) { return 1000.0 + 200 * fakes::noise(std::size_t(call)); }}};
    SamplingSettings settings = fakes::adaptive_sampling(10, 60);
    settings.stable_relative_width = 0.001;
    const auto candidates = fakes::benchmark_candidates({"steady", "noisy"});
    const BenchmarkOutcome outcome = run_benchmark(candidates, settings, timeline.source());
    REQUIRE(outcome.ranking.size() == 2);
    CHECK(outcome.ranking[0].statistics.samples == 60);
    CHECK(outcome.ranking[1].statistics.samples == 60);
}

TEST_CASE("near-ties that cannot beat the leader by more than the threshold stop being sampled") {
    // b and c overlap the steady leader but cannot beat it by 2%: they are out at the first
    // decision. d is centred on the leader with ±10% noise and keeps the race open, so without
    // that rule b and c would be sampled to the maximum beside it.
    auto steady = [](double ns) {
        return [ns](int call) { return ns + 2 * fakes::noise(std::size_t(call)); };
    };
    Timeline timeline{{steady(1000), steady(1001), steady(1001.5),
                       [](int call) { return 1000.0 + 100 * fakes::noise(std::size_t(call)); }}};
    SamplingSettings settings = fakes::adaptive_sampling(10, 60);
    settings.stable_relative_width = 0.001;
    const auto candidates = fakes::benchmark_candidates({"a", "b", "c", "d"});
    const BenchmarkOutcome outcome = run_benchmark(candidates, settings, timeline.source());
    REQUIRE(outcome.ranking.size() == 4);
    for (const RankedCandidate& candidate : outcome.ranking) {
        CAPTURE(candidate.name);
        if (candidate.name == "b" || candidate.name == "c") {
            CHECK(candidate.eliminated);
            CHECK(candidate.statistics.samples == 10);
        }
    }
}

}  // namespace race_test
