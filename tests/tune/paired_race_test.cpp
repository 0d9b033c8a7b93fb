// The race samples its candidates in interleaved rounds over one shared batch and judges them on
// per-round paired ratios against the leader: load common to a round cancels, so identical
// kernels tie and stop early on a busy machine, while a real difference still shows.
#include <cmath>
#include <cstddef>
#include <cstdint>
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
        const auto candidates = copies(8);
        const BenchmarkOutcome outcome =
            run_benchmark(candidates, SamplingSettings{}, machine.source());
        REQUIRE(outcome.ranking.size() == 8);
        for (std::size_t rank = 1; rank < outcome.ranking.size(); ++rank) {
            CAPTURE(outcome.ranking[rank].name);
            CHECK(outcome.ranking[rank].tied_with_winner);
        }
        for (const RankedCandidate& ranked : outcome.ranking) {
            CHECK(ranked.statistics.samples <= 20);
        }
    }
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

TEST_CASE("a paired ratio is the median of per-round ratios with the coverage it really has") {
    // Rounds whose load differs wildly, the contender 10% slower in each: the ratio is exact.
    const std::vector<double> baseline{100, 400, 150, 900, 120, 300, 250, 80};
    std::vector<double> contender;
    for (const double ns : baseline) {
        contender.push_back(ns * 1.1);
    }
    const PairedRatio paired = paired_ratio(baseline, contender);
    CHECK(paired.rounds == 8);
    CHECK(paired.ratio == doctest::Approx(1.1));
    CHECK(paired.low == doctest::Approx(1.1));
    CHECK(paired.high == doctest::Approx(1.1));
    CHECK(paired.coverage >= 0.95);
    // Three rounds are too few for 95%: the interval is [min, max], at 75%.
    const std::vector<double> few_base{100, 100, 100};
    const std::vector<double> few_other{90, 130, 110, 999};  // its fourth round has no partner
    const PairedRatio few = paired_ratio(few_base, few_other);
    CHECK(few.rounds == 3);
    CHECK(few.low == doctest::Approx(0.9));
    CHECK(few.high == doctest::Approx(1.3));
    CHECK(few.ratio == doctest::Approx(1.1));
    CHECK(few.coverage == doctest::Approx(0.75));
    // A round with a non-positive time has no ratio.
    CHECK(paired_ratio(std::vector<double>{0, 100}, std::vector<double>{5, 200}).rounds == 1);
}

}  // namespace paired_race_test
