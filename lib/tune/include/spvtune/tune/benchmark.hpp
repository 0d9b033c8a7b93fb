#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include <spvtune/tune/result.hpp>
#include <spvtune/tune/sampling.hpp>
#include <spvtune/tune/tune_entry.hpp>

namespace spvtune::tune {

/// A candidate entering a benchmark.
struct BenchmarkCandidate {
    /// Position in its tunable set; passed back to the sample source.
    std::size_t index = 0;
    std::string_view name;
    /// Higher wins an exact tie of medians (then the lower index).
    int priority = 0;
    /// The time of a run made before the race (its output check): with two or more warm-ups
    /// set it counts as the first, so one fewer is measured.
    std::optional<Sample> warm_reading = std::nullopt;
};

struct BenchmarkOutcome {
    /// Fastest median first; eliminated candidates included (flagged), failed ones not.
    std::vector<RankedCandidate> ranking;
    /// Candidates whose warm-up or a sample returned an error (their samples are discarded).
    std::vector<CandidateFailure> failures;
};

/// Measures one sample of the candidate at `index`.
using SampleSource = std::function<Result<Sample>(std::size_t index)>;

/// Measures one sample of the candidate at `index` over a batch of `runs` back-to-back runs;
/// own_runs (shared_batch.hpp): the source sizes the batch itself.
using BatchedSampleSource = std::function<Result<Sample>(std::size_t index, std::uint64_t runs)>;

/// Measures `samples` samples of the candidate at `index` over a batch of `runs` each, at once
/// (one submission where the source can); own_runs asks for one sample.
using SampleRoundSource = std::function<Result<std::vector<Sample>>(
    std::size_t index, std::uint64_t runs, std::size_t samples)>;

/// Measures the candidates as `settings` says, serially: warm-ups (each candidate's batch is
/// its own there, and calibrates it), then rounds in which every live candidate takes the same
/// number of samples at once over one shared batch (SharedBatch), in alternating direction so
/// slow drift hits all alike. A round holds one sample each at first, then up to
/// `samples_per_submission`: fewer where adaptive sampling would be left under 6 rounds in its
/// most samples, or where the slowest live candidate's round would take over a second.
///
/// Adaptive mode judges every live candidate against the leader (the lowest median) on its
/// per-round paired ratios (paired_ratio of each round's mean), whose interval needs as many
/// rounds as a median's 95% interval: noise common to a round cancels, so identical kernels are
/// not told apart by a busy machine and a real difference shows through it. It cuts the hopeless
/// after one round, then eliminates candidates that cannot beat the leader by more than the
/// indifference threshold (keeping two), and stops once some live candidate is one that none of
/// the others can beat by more than that, or whose every ratio is known to within the stable
/// width; that candidate wins, unless one capped by its budget has a lower median. A group of
/// tied leaders stops at once. The others are reported tied with the winner unless their paired
/// ratios to it are confidently above 1 + indifference, judged together (Holm's step-down over
/// one-sided signed-rank tests at 5% family-wise); one cut as hopeless is never tied.
BenchmarkOutcome run_benchmark(std::span<const BenchmarkCandidate> candidates,
                               const SamplingSettings& settings, const SampleRoundSource& measure);

/// The same, for a source that takes one sample a call: rounds of one sample each, whatever
/// `samples_per_submission` says.
BenchmarkOutcome run_benchmark(std::span<const BenchmarkCandidate> candidates,
                               const SamplingSettings& settings,
                               const BatchedSampleSource& measure);

/// The same, for a source that always sizes its own batches.
BenchmarkOutcome run_benchmark(std::span<const BenchmarkCandidate> candidates,
                               const SamplingSettings& settings, const SampleSource& measure);

}  // namespace spvtune::tune
