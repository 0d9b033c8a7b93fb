// The race samples its candidates in interleaved rounds over one shared batch and judges them on
// per-round paired ratios against the leader: load common to a round cancels, so identical
// kernels tie and stop early on a busy machine, while a real difference still shows.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/tune/benchmark.hpp>
#include <spvtune/tune/shared_batch.hpp>
#include <spvtune/tune/statistics.hpp>

#include "tune/busy_machine.hpp"

namespace paired_race_test {

using namespace spvtune::tune;

using namespace spvtune::tune::testing;

TEST_CASE("load common to a round does not separate eight identical kernels: all tie, soon") {
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        CAPTURE(seed);
        BusyMachine machine{std::vector<double>(8, 1'000'000.0), {}, seed};
        const BenchmarkOutcome outcome =
            run_benchmark(copies(8), SamplingSettings{}, machine.source());
        REQUIRE(outcome.ranking.size() == 8);
        CHECK(all_tied_with_winner(outcome));
        CHECK(most_samples(outcome) <= 20);
    }
}

TEST_CASE("eight identical kernels with each sample up to 5% off tie within 20 samples") {
    // The noise of each sample on lavapipe on a quiet machine: per-round ratios spread by about
    // 4%, wider than the 2% that separates a meaningful win. Judged on the median of the ratios
    // the copies took more than 20 samples in 18 of these 20 runs; on their Hodges-Lehmann
    // estimate, settling on whichever copy the ratios put in front, in one.
    std::size_t settled_soon = 0;
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        CAPTURE(seed);
        BusyMachine machine{std::vector<double>(8, 1'000'000.0), {}, seed};
        machine.own_noise = 0.05;
        const BenchmarkOutcome outcome =
            run_benchmark(copies(8), SamplingSettings{}, machine.source());
        REQUIRE(outcome.ranking.size() == 8);
        CHECK(all_tied_with_winner(outcome));
        settled_soon += most_samples(outcome) <= 20 ? 1 : 0;
    }
    CHECK(settled_soon >= 19);
}

TEST_CASE(
    "eight identical kernels with lavapipe's noise and spikes mostly stop within 20 samples") {
    // Each sample up to 6% off and one in 33 a spike of 1.3-2.2x, as lavapipe reads a 1 ms
    // kernel on a quiet machine. Settling at the elimination's one-sided 97.5% bound, 59 of these
    // 100 races ended within 20 samples; at the one-sided 95% of an equivalence test, 91.
    std::size_t settled_soon = 0;
    for (std::uint64_t seed = 1; seed <= 100; ++seed) {
        BusyMachine machine{std::vector<double>(8, 1'000'000.0), {}, seed};
        machine.own_noise = 0.06;
        machine.spike_chance = 0.03;
        const BenchmarkOutcome outcome =
            run_benchmark(copies(8), SamplingSettings{}, machine.source());
        REQUIRE(outcome.ranking.size() == 8);
        settled_soon += most_samples(outcome) <= 20 ? 1 : 0;
    }
    CHECK(settled_soon >= 80);
}

TEST_CASE("of two kernels 5% apart, the slower wins in at most 2% of races, at 10% noise") {
    // The price of settling sooner: the race may stop on the slower of two close kernels. Each
    // sample up to 10% off and one in 20 a spike: the slower won 3 of these 400 races settled at
    // the one-sided 97.5% bound, 4 at 95%, and 10 at 90%.
    std::size_t misordered = 0;
    for (std::uint64_t seed = 1; seed <= 400; ++seed) {
        BusyMachine machine{{1'000'000.0, 950'000.0}, {}, seed};
        machine.own_noise = 0.10;
        machine.spike_chance = 0.05;
        const BenchmarkOutcome outcome =
            run_benchmark(copies(2), SamplingSettings{}, machine.source());
        REQUIRE(outcome.ranking.size() == 2);
        misordered += outcome.ranking.front().name == "k0" ? 1 : 0;
    }
    CHECK(misordered <= 8);
}

TEST_CASE("copies of one kernel are ranked apart in at most 5% of runs, judged together") {
    // With each sample up to 10% off, the winner of eight copies is the luckiest of them, and
    // seven comparisons with it are seven chances of a false "slower". Judged one by one at 95%
    // 25 of these 300 runs ranked a copy apart; Holm's step-down over the seven keeps it to 7.
    std::size_t ranked_apart = 0;
    for (std::uint64_t seed = 1; seed <= 300; ++seed) {
        BusyMachine machine{std::vector<double>(8, 1'000'000.0), {}, seed};
        machine.own_noise = 0.1;
        const BenchmarkOutcome outcome =
            run_benchmark(copies(8), SamplingSettings{}, machine.source());
        REQUIRE(outcome.ranking.size() == 8);
        ranked_apart += all_tied_with_winner(outcome) ? 0 : 1;
    }
    CHECK(ranked_apart <= 15);
}

TEST_CASE("a real 10% difference shows through load common to a round") {
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        CAPTURE(seed);
        BusyMachine machine{{1'000'000.0, 1'100'000.0, 1'000'000.0}, {}, seed};
        const auto candidates = copies(3);
        const BenchmarkOutcome outcome =
            run_benchmark(candidates, SamplingSettings{}, machine.source());
        REQUIRE(outcome.ranking.size() == 3);
        CHECK(outcome.ranking.front().name != "k1");
        for (std::size_t rank = 1; rank < outcome.ranking.size(); ++rank) {
            CAPTURE(outcome.ranking[rank].name);
            CHECK(outcome.ranking[rank].tied_with_winner == (outcome.ranking[rank].name != "k1"));
        }
    }
}

TEST_CASE("the race times every candidate over one batch, the largest any calibrated") {
    // Two identical kernels whose own batches differ (200 and 20 runs): timed over their own,
    // the one of 20 runs pays ten times the submission cost per run and reads 27% slower. A far
    // slower third one is stretched to no more than 64 times its own batch of 1.
    BusyMachine machine{{1000.0, 1000.0, 1'000'000.0}, {200, 20, 1}, 7};
    machine.submission_ns = 6000;
    const auto candidates = copies(3);
    SamplingSettings settings = SamplingSettings::fixed(2, 12);
    const BenchmarkOutcome outcome = run_benchmark(candidates, settings, machine.source());
    for (std::size_t index = 0; index < 3; ++index) {
        CAPTURE(index);
        const std::vector<std::uint64_t>& requested = machine.requested[index];
        REQUIRE(requested.size() == 14);
        CHECK(requested[0] == own_runs);  // warm-ups calibrate the candidate's own batch
        for (std::size_t call = 2; call < requested.size(); ++call) {
            CHECK(requested[call] == (index == 2 ? 64 : 200));
        }
    }
    REQUIRE(outcome.ranking.size() == 3);
    CHECK(outcome.ranking[1].name != "k2");
    CHECK(outcome.ranking[1].tied_with_winner);
}

TEST_CASE("a shared batch stretches a slow candidate at most 64 times its own") {
    SharedBatch batch(3);
    CHECK(batch.runs_for(0) == own_runs);
    batch.measured(0, Sample{10, TimingMethod::device_timestamps, 1000});
    batch.measured(1, Sample{10, TimingMethod::device_timestamps, 2});
    CHECK(batch.runs_for(0) == 1000);
    CHECK(batch.runs_for(1) == 128);
    CHECK(batch.runs_for(2) == own_runs);
    // Only the first sample calibrates: a later shared-batch sample does not move it.
    batch.measured(1, Sample{10, TimingMethod::device_timestamps, 128});
    CHECK(batch.runs_for(1) == 128);
}

TEST_CASE("a paired ratio is the Hodges-Lehmann estimate of per-round ratios, at its coverage") {
    // Rounds whose load differs wildly, the contender 10% slower in each: the ratio is exact.
    const std::vector<double> baseline{100, 400, 150, 900, 120, 300, 250, 80};
    std::vector<double> contender;
    for (const double ns : baseline) {
        contender.push_back(ns * 1.1);
    }
    const PairedRatio paired = paired_ratio(baseline, contender);
    CHECK(paired.rounds == 8);
    CHECK(paired.interval.ratio == doctest::Approx(1.1));
    CHECK(paired.interval.low == doctest::Approx(1.1));
    CHECK(paired.interval.high == doctest::Approx(1.1));
    CHECK(paired.coverage >= 0.95);
    // Three rounds are too few for 95%: the interval is [min, max], at 75%. The estimate is the
    // median of the six geometric means of pairs (each ratio with itself included): 0.9, 0.995,
    // 1.082, 1.1, 1.196, 1.3, so the geometric mean of 1.082 and 1.1.
    const std::vector<double> few_base{100, 100, 100};
    const std::vector<double> few_other{90, 130, 110, 999};  // its fourth round has no partner
    const PairedRatio few = paired_ratio(few_base, few_other);
    CHECK(few.rounds == 3);
    CHECK(few.interval.low == doctest::Approx(0.9));
    CHECK(few.interval.high == doctest::Approx(1.3));
    CHECK(few.interval.ratio == doctest::Approx(std::sqrt(std::sqrt(0.9 * 1.3) * 1.1)));
    CHECK(few.coverage == doctest::Approx(0.75));
    // The race waits for samples_for_coverage(0.95) rounds, counted for a median's interval: the
    // signed-rank interval needs the same 6 ([min, max] covers 1 - 2 / 2^n).
    const std::vector<double> ones(6, 100.0);
    CHECK(paired_ratio(std::span(ones).first(5), std::span(ones).first(5)).coverage < 0.95);
    CHECK(paired_ratio(ones, ones).coverage >= 0.95);
    // A round with a non-positive time has no ratio.
    CHECK(paired_ratio(std::vector<double>{0, 100}, std::vector<double>{5, 200}).rounds == 1);
}

TEST_CASE("a paired ratio's interval is the signed-rank interval, narrower than the median's") {
    // Twelve rounds spread evenly from 0.94 to 1.16 and one wild round (3x). The median's 95%
    // interval of the 13 ratios is their 3rd to 11th, [0.98, 1.14]; the signed-rank interval is
    // the 18th to 74th of the 91 pair means (P(W <= 17) = 0.0239 for 13 rounds),
    // [1.009, 1.130]. The wild round moves the estimate (1.059) little from the ordinary
    // rounds' centre (1.05).
    std::vector<double> baseline(13, 1000.0);
    std::vector<double> contender;
    for (int i = 0; i < 12; ++i) {
        contender.push_back(1000.0 * (0.94 + 0.02 * i));
    }
    contender.push_back(3000.0);
    const PairedRatio paired = paired_ratio(baseline, contender);
    CHECK(paired.rounds == 13);
    CHECK(paired.coverage == doctest::Approx(1 - 2 * 0.02392578125));
    CHECK(paired.interval.ratio == doctest::Approx(1.0592).epsilon(1e-3));
    CHECK(paired.interval.low == doctest::Approx(1.0088).epsilon(1e-3));
    CHECK(paired.interval.high == doctest::Approx(1.1300).epsilon(1e-3));
}

}  // namespace paired_race_test
