#pragma once

#include <cstddef>
#include <functional>
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
};

struct BenchmarkOutcome {
    /// Fastest median first; eliminated candidates included (flagged), failed ones not.
    std::vector<RankedCandidate> ranking;
    /// Candidates whose warm-up or a sample returned an error (their samples are discarded).
    std::vector<CandidateFailure> failures;
};

/// Measures one sample of the candidate at `index`.
using SampleSource = std::function<Result<Sample>(std::size_t index)>;

/// Measures the candidates as `settings` says, serially: warm-ups, then rounds in which every
/// live candidate takes one sample (alternating direction, so slow drift hits all alike).
/// Adaptive mode eliminates far slower candidates and stops when the leader is settled.
BenchmarkOutcome run_benchmark(std::span<const BenchmarkCandidate> candidates,
                               const SamplingSettings& settings, const SampleSource& measure);

}  // namespace spvtune::tune
