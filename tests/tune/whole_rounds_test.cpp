// A source that takes a whole round of the race at once (a worker that goes on to the next
// candidate without waiting for a request each) is asked once per round, for every live
// candidate in the round's order, and the race it runs is the one a call per candidate gives.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/tune/benchmark.hpp>
#include <spvtune/tune/shared_batch.hpp>

#include "tune/busy_machine.hpp"

namespace whole_rounds_test {

using namespace spvtune::tune;
using namespace spvtune::tune::testing;

namespace {

/// Whole rounds from `machine`, each part taken as its candidate's call would be; every round's
/// candidates are kept, in order.
struct RoundLog {
    BusyMachine& machine;
    std::vector<std::vector<std::size_t>> rounds;
    std::vector<std::vector<std::uint64_t>> runs;

    RoundSource source() {
        return [this](std::span<const RoundPart> parts) {
            std::vector<std::size_t> order;
            std::vector<std::uint64_t> batches;
            std::vector<Result<std::vector<Sample>>> taken;
            for (const RoundPart& part : parts) {
                order.push_back(part.index);
                batches.push_back(part.runs);
                taken.emplace_back(machine.take(part.index, part.runs, part.samples));
            }
            rounds.push_back(std::move(order));
            runs.push_back(std::move(batches));
            return taken;
        };
    }
};

}  // namespace

TEST_CASE("each round after the warm-ups is one call for every live candidate, in its order") {
    BusyMachine machine{{1000.0, 2000.0, 3000.0}, {1, 2, 4}};
    RoundLog log{machine, {}, {}};
    const auto candidates = copies(3);
    const BenchmarkOutcome outcome = run_benchmark(candidates, SamplingSettings::fixed(2, 5),
                                                   machine.round_source(), log.source());
    // Rounds alternate direction, so slow drift hits every candidate alike.
    const std::vector<std::vector<std::size_t>> expected{
        {0, 1, 2}, {2, 1, 0}, {0, 1, 2}, {2, 1, 0}, {0, 1, 2}};
    CHECK(log.rounds == expected);
    for (const std::vector<std::uint64_t>& batches : log.runs) {
        // The shared batch: the largest any candidate calibrated to.
        CHECK(batches == std::vector<std::uint64_t>{4, 4, 4});
    }
    for (std::size_t index = 0; index < 3; ++index) {
        CAPTURE(index);
        // The warm-ups came from the candidate's own source, each sample of a round from the
        // round's call.
        CHECK(machine.asked[index] == std::vector<std::size_t>{1, 1, 1, 1, 1, 1, 1});
    }
    REQUIRE(outcome.ranking.size() == 3);
    CHECK(outcome.ranking[0].statistics.samples == 5);
}

TEST_CASE("the race on whole rounds is the race on a call per candidate, sample for sample") {
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
        CAPTURE(seed);
        const std::vector<double> kernels{1'000'000.0, 1'040'000.0, 1'000'000.0, 1'300'000.0};
        BusyMachine by_candidate{kernels, {}, seed};
        by_candidate.call_noise = 0.02;
        BusyMachine by_round{kernels, {}, seed};
        by_round.call_noise = 0.02;
        RoundLog log{by_round, {}, {}};
        const auto candidates = copies(4);
        const BenchmarkOutcome one =
            run_benchmark(candidates, SamplingSettings{}, by_candidate.round_source());
        const BenchmarkOutcome whole =
            run_benchmark(candidates, SamplingSettings{}, by_round.round_source(), log.source());
        CHECK_FALSE(log.rounds.empty());
        REQUIRE(one.ranking.size() == whole.ranking.size());
        for (std::size_t rank = 0; rank < one.ranking.size(); ++rank) {
            CAPTURE(rank);
            CHECK(one.ranking[rank].name == whole.ranking[rank].name);
            CHECK(one.ranking[rank].statistics.samples == whole.ranking[rank].statistics.samples);
            CHECK(one.ranking[rank].statistics.median_ns ==
                  whole.ranking[rank].statistics.median_ns);
            CHECK(one.ranking[rank].eliminated == whole.ranking[rank].eliminated);
            CHECK(one.ranking[rank].tied_with_winner == whole.ranking[rank].tied_with_winner);
        }
    }
}

TEST_CASE("a part of a round that fails drops its candidate alone, named by its samples") {
    BusyMachine machine{{1000.0, 1000.0, 1000.0}, {}};
    std::size_t calls = 0;
    const RoundSource failing_second = [&](std::span<const RoundPart> parts) {
        ++calls;
        std::vector<Result<std::vector<Sample>>> taken;
        for (const RoundPart& part : parts) {
            if (calls == 2 && part.index == 1) {
                taken.emplace_back(fail("the worker failed: out of memory"));
            } else {
                taken.emplace_back(machine.take(part.index, part.runs, part.samples));
            }
        }
        return taken;
    };
    const auto candidates = copies(3);
    const BenchmarkOutcome outcome = run_benchmark(candidates, SamplingSettings::fixed(1, 4),
                                                   machine.round_source(), failing_second);
    REQUIRE(outcome.failures.size() == 1);
    CHECK(outcome.failures[0].name == "k1");
    CHECK(outcome.failures[0].reason == "sample 2: the worker failed: out of memory");
    REQUIRE(outcome.ranking.size() == 2);
    for (const RankedCandidate& ranked : outcome.ranking) {
        CHECK(ranked.statistics.samples == 4);
    }
}

TEST_CASE("a round source that answers fewer parts than asked fails the ones left, named") {
    BusyMachine machine{{1000.0, 1000.0, 1000.0}, {}};
    const RoundSource short_round = [&](std::span<const RoundPart> parts) {
        std::vector<Result<std::vector<Sample>>> taken;
        for (std::size_t k = 0; k + 1 < parts.size(); ++k) {
            taken.emplace_back(machine.take(parts[k].index, parts[k].runs, parts[k].samples));
        }
        return taken;
    };
    const auto candidates = copies(3);
    const BenchmarkOutcome outcome = run_benchmark(candidates, SamplingSettings::fixed(1, 4),
                                                   machine.round_source(), short_round);
    // The first round (k0, k1, k2) loses k2; the second, now k1 then k0, loses k0.
    REQUIRE(outcome.failures.size() == 2);
    CHECK(outcome.failures[0].name == "k2");
    CHECK(outcome.failures[0].reason == "sample 1: the source gave 2 results for a round of 3");
    CHECK(outcome.failures[1].name == "k0");
    REQUIRE(outcome.ranking.size() == 1);
    CHECK(outcome.ranking[0].name == "k1");
}

TEST_CASE("a round with one live candidate, or before the batches are calibrated, is a call each") {
    BusyMachine machine{{1000.0, 1000.0}, {}};
    RoundLog log{machine, {}, {}};
    const auto candidates = copies(2);
    // No warm-ups: the first round calibrates each candidate's own batch, a call each.
    run_benchmark(candidates, SamplingSettings::fixed(0, 3), machine.round_source(), log.source());
    CHECK(log.rounds.size() == 2);
    CHECK(machine.requested[0].front() == own_runs);
    BusyMachine alone{{1000.0}, {}};
    RoundLog alone_log{alone, {}, {}};
    run_benchmark(copies(1), SamplingSettings::fixed(1, 3), alone.round_source(),
                  alone_log.source());
    CHECK(alone_log.rounds.empty());
    CHECK(alone.asked[0].size() == 4);
}

}  // namespace whole_rounds_test
