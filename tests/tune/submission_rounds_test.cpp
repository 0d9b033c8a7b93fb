// The race may take several samples of a candidate in one submission (a round): the fixed cost
// of a call is paid once per round, the rounds stay aligned across candidates, and decisions
// pair whole rounds, so samples that share a submission's circumstances are not counted as
// independent evidence.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/tune/benchmark.hpp>
#include <spvtune/tune/shared_batch.hpp>

#include "tune/busy_machine.hpp"

namespace submission_rounds_test {

using namespace spvtune::tune;
using namespace spvtune::tune::testing;

namespace {

SamplingSettings with_rounds_of(std::size_t samples, SamplingSettings settings = {}) {
    settings.samples_per_submission = samples;
    return settings;
}

}  // namespace

TEST_CASE("fixed mode takes its samples in rounds of the set size, the last round what is left") {
    BusyMachine machine{{1000.0, 2000.0}, {}};
    const auto candidates = copies(2);
    const BenchmarkOutcome outcome = run_benchmark(
        candidates, with_rounds_of(3, SamplingSettings::fixed(2, 10)), machine.round_source());
    for (std::size_t index = 0; index < 2; ++index) {
        CAPTURE(index);
        // Two warm-ups of one sample each, a first round of one, then 3 + 3 + 3.
        CHECK(machine.asked[index] == std::vector<std::size_t>{1, 1, 1, 3, 3, 3});
    }
    REQUIRE(outcome.ranking.size() == 2);
    CHECK(outcome.ranking[0].name == "k0");
    CHECK(outcome.ranking[0].statistics.samples == 10);
    CHECK(outcome.ranking[1].statistics.samples == 10);
}

TEST_CASE("without warm-ups the first round calibrates with one sample, later rounds take all") {
    BusyMachine machine{{1000.0, 1000.0}, {}};
    const auto candidates = copies(2);
    run_benchmark(candidates, with_rounds_of(4, SamplingSettings::fixed(0, 9)),
                  machine.round_source());
    CHECK(machine.asked[0] == std::vector<std::size_t>{1, 4, 4});
    CHECK(machine.asked[1] == std::vector<std::size_t>{1, 4, 4});
}

TEST_CASE("a source that gives the wrong number of samples fails its candidate, named") {
    const auto candidates = copies(2);
    const SampleRoundSource short_one = [](std::size_t index, std::uint64_t,
                                           std::size_t samples) -> Result<std::vector<Sample>> {
        const std::size_t given = index == 1 && samples > 1 ? samples - 1 : samples;
        return std::vector<Sample>(given, Sample{1000.0, TimingMethod::device_timestamps, 1});
    };
    const BenchmarkOutcome outcome =
        run_benchmark(candidates, with_rounds_of(2, SamplingSettings::fixed(1, 4)), short_one);
    REQUIRE(outcome.failures.size() == 1);
    CHECK(outcome.failures[0].name == "k1");
    CHECK(outcome.failures[0].reason == "samples 2-3: the source gave 1 samples for 2");
    REQUIRE(outcome.ranking.size() == 1);
    CHECK(outcome.ranking[0].statistics.samples == 4);
}

TEST_CASE("eight identical kernels tie and stop early in rounds of two") {
    // Besides the load of its round, every call's samples share a load up to 0.5% either way.
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        CAPTURE(seed);
        BusyMachine machine{std::vector<double>(8, 1'000'000.0), {}, seed};
        machine.call_noise = 0.005;
        const BenchmarkOutcome outcome =
            run_benchmark(copies(8), with_rounds_of(2), machine.round_source());
        REQUIRE(outcome.ranking.size() == 8);
        CHECK(all_tied_with_winner(outcome));
        CHECK(most_samples(outcome) <= 20);
    }
}

TEST_CASE("a real 10% difference shows through in rounds of two") {
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        CAPTURE(seed);
        BusyMachine machine{{1'000'000.0, 1'100'000.0, 1'000'000.0}, {}, seed};
        machine.call_noise = 0.02;
        const auto candidates = copies(3);
        const BenchmarkOutcome outcome =
            run_benchmark(candidates, with_rounds_of(2), machine.round_source());
        REQUIRE(outcome.ranking.size() == 3);
        CHECK(outcome.ranking.front().name != "k1");
        for (std::size_t rank = 1; rank < outcome.ranking.size(); ++rank) {
            CAPTURE(outcome.ranking[rank].name);
            CHECK(outcome.ranking[rank].tied_with_winner == (outcome.ranking[rank].name != "k1"));
        }
    }
}

TEST_CASE("decisions wait for enough rounds, not only enough samples") {
    // Rounds of five (after a first of one) reach min_samples (10) after three rounds; a 95%
    // interval of per-round ratios needs six, so no one is cut before: the 30% slower kernels
    // keep sampling to round six, 1 + 5 * 5 samples.
    BusyMachine machine{{1000.0, 1300.0, 1300.0}, {}};
    const auto candidates = copies(3);
    SamplingSettings settings = with_rounds_of(5);
    settings.hopeless_ratio = 100;
    const BenchmarkOutcome outcome = run_benchmark(candidates, settings, machine.round_source());
    for (const RankedCandidate& ranked : outcome.ranking) {
        CAPTURE(ranked.name);
        CHECK(ranked.statistics.samples >= 26);
    }
}

TEST_CASE("adaptive sampling keeps six rounds within its most samples, whatever the set size") {
    // 64 a round would be one round of the 60 samples: no decision could be taken.
    BusyMachine machine{{1000.0, 1000.0, 3000.0}, {}};
    const auto candidates = copies(3);
    const BenchmarkOutcome outcome =
        run_benchmark(candidates, with_rounds_of(64), machine.round_source());
    for (std::size_t index = 0; index < 3; ++index) {
        CAPTURE(index);
        for (const std::size_t asked : machine.asked[index]) {
            CHECK(asked <= 10);
        }
    }
    // Decisions were taken: the race settled before the maximum (one round of 1 and one of
    // 59 could not have).
    for (const RankedCandidate& ranked : outcome.ranking) {
        CAPTURE(ranked.name);
        CHECK(ranked.statistics.samples < 60);
    }
}

TEST_CASE("a round of a slow candidate stays within a second: fewer samples in its submission") {
    // 600 ms a sample, times the round's load (0.6 to 1.9): the last sample says at most two fit
    // in a second, so rounds of four never take more, and the six samples are all taken.
    BusyMachine machine{{600e6, 600e6}, {}};
    const auto candidates = copies(2);
    const BenchmarkOutcome outcome = run_benchmark(
        candidates, with_rounds_of(4, SamplingSettings::fixed(1, 6)), machine.round_source());
    for (std::size_t index = 0; index < 2; ++index) {
        CAPTURE(index);
        REQUIRE(machine.asked[index].size() >= 4);
        for (const std::size_t asked : machine.asked[index]) {
            CHECK(asked <= 2);
        }
        CHECK(outcome.ranking.at(index).statistics.samples == 6);
    }
}

}  // namespace submission_rounds_test
