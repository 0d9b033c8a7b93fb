#pragma once

// A scripted busy machine for the race's tests: load common to a round, noise of each call and
// of each sample, and a submission's fixed cost, all from one seeded generator.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <spvtune/tune/benchmark.hpp>
#include <spvtune/tune/shared_batch.hpp>

namespace spvtune::tune::testing {

/// A machine whose load changes from round to round: every sample of a round (a run of calls in
/// which no candidate repeats) is scaled by one factor drawn for the round, 0.6 to 1.9; the
/// samples of one call share a factor of their own besides (up to ±`call_noise`), and each has
/// its own small noise (up to ±`own_noise`), and may be a spike (`spike_chance`). Each sample also
/// pays a submission's fixed cost, shared by the runs of its batch; a candidate asked for its own
/// batch calibrates to `own_batch`. Deterministic: a seeded generator, read without library
/// distributions.
struct BusyMachine {
    std::vector<double> kernel_ns;
    /// Empty: 1 run for every candidate.
    std::vector<std::uint64_t> own_batch;
    std::uint64_t seed = 1;
    double own_noise = 0.005;
    double submission_ns = 0;
    double call_noise = 0;
    /// The chance that a sample is a spike besides, 1.3 to 2.2 times as long (another process
    /// took a core from the device's threads for part of it, as on lavapipe).
    double spike_chance = 0;

    std::mt19937_64 random{seed};
    std::vector<bool> in_round = std::vector<bool>(kernel_ns.size(), false);
    double factor = 1;
    /// Per candidate, the runs each call asked for (own_runs for its own batch).
    std::vector<std::vector<std::uint64_t>> requested =
        std::vector<std::vector<std::uint64_t>>(kernel_ns.size());
    /// Per candidate, the samples each call asked for.
    std::vector<std::vector<std::size_t>> asked =
        std::vector<std::vector<std::size_t>>(kernel_ns.size());

    double uniform() { return static_cast<double>(random() >> 11U) * 0x1.0p-53; }

    /// `samples` samples of the candidate at `index` in one call.
    std::vector<Sample> take(std::size_t index, std::uint64_t runs, std::size_t samples) {
        if (in_round[index]) {
            in_round.assign(in_round.size(), false);
            factor = 0.6 + 1.3 * uniform();
        }
        in_round[index] = true;
        requested[index].push_back(runs);
        asked[index].push_back(samples);
        const std::uint64_t own = own_batch.empty() ? 1 : own_batch[index];
        const std::uint64_t batch = runs == own_runs ? own : runs;
        const double call = 1 + call_noise * (2 * uniform() - 1);
        std::vector<Sample> taken;
        for (std::size_t i = 0; i < samples; ++i) {
            double noise = 1 + own_noise * (2 * uniform() - 1);
            if (spike_chance > 0 && uniform() < spike_chance) {
                noise *= 1.3 + 0.9 * uniform();
            }
            const double ns = kernel_ns[index] * factor * call * noise +
                              submission_ns / static_cast<double>(batch);
            taken.push_back(Sample{ns, TimingMethod::device_timestamps, batch});
        }
        return taken;
    }

    BatchedSampleSource source() {
        return [this](std::size_t index, std::uint64_t runs) -> Result<Sample> {
            return take(index, runs, 1).front();
        };
    }

    SampleRoundSource round_source() {
        return [this](std::size_t index, std::uint64_t runs,
                      std::size_t samples) -> Result<std::vector<Sample>> {
            return take(index, runs, samples);
        };
    }
};

/// Whether every ranked candidate but the winner is reported tied with it.
inline bool all_tied_with_winner(const BenchmarkOutcome& outcome) {
    return std::all_of(outcome.ranking.begin() + (outcome.ranking.empty() ? 0 : 1),
                       outcome.ranking.end(),
                       [](const RankedCandidate& ranked) { return ranked.tied_with_winner; });
}

/// The most samples any ranked candidate took.
inline std::size_t most_samples(const BenchmarkOutcome& outcome) {
    std::size_t most = 0;
    for (const RankedCandidate& ranked : outcome.ranking) {
        most = std::max(most, ranked.statistics.samples);
    }
    return most;
}

/// Candidates k0, k1, ... (at most eight).
inline std::vector<BenchmarkCandidate> copies(std::size_t n) {
    static const std::vector<std::string> names{"k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7"};
    std::vector<BenchmarkCandidate> out;
    for (std::size_t i = 0; i < n; ++i) {
        out.push_back({i, names.at(i), 0});
    }
    return out;
}

}  // namespace spvtune::tune::testing
