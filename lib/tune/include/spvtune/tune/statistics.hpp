#pragma once

#include <cstddef>
#include <span>

#include <spvtune/tune/tune_entry.hpp>

namespace spvtune::tune {

/// 1-based ranks (in sorted order) of the order statistics that bound a distribution-free
/// confidence interval of the median, and the exact coverage those ranks give.
struct MedianRanks {
    std::size_t lower = 0;
    std::size_t upper = 0;
    double coverage = 0;
};

/// The symmetric ranks whose interval [x_(lower), x_(upper)] covers the true median with
/// probability >= `confidence` (binomial(n, 1/2) tails). When n is too small to reach it, the
/// widest interval (min, max) is returned with its lower coverage; n == 0 gives all zeros.
MedianRanks median_confidence_ranks(std::size_t n, double confidence = 0.95);

/// The exact probability that the median's interval of `n` samples covers the true median:
/// below the nominal 95% for n < 6, where the interval is only [min, max] or a point.
double median_interval_coverage(std::size_t n);

/// The fewest samples whose median interval reaches `confidence`: no decision (eliminate, stop,
/// tie) may rest on fewer.
std::size_t samples_for_coverage(double confidence = 0.95);

/// Count, min, median, mean, sample standard deviation (n - 1) and a 95% confidence interval
/// of the median; all zeros for no samples.
SampleStatistics summarize(std::span<const double> samples_ns);

/// True when the two medians' confidence intervals share at least one point.
bool intervals_overlap(const SampleStatistics& a, const SampleStatistics& b);

/// Width of the median's interval relative to the median (0 when the median is 0).
double relative_interval_width(const SampleStatistics& statistics);

/// How much slower the contender is than the baseline (a ratio of times: 1.1 is 10% slower),
/// with a confidence interval (its level is the caller's: 95% unless it says otherwise).
struct RatioInterval {
    double ratio = 0;
    double low = 0;
    double high = 0;
};

/// How one candidate's time compares with another's, judged round by round: for samples taken
/// in the same interleaved rounds, the Hodges-Lehmann estimate of the per-round ratios
/// (contender / baseline: the median of the geometric means of every pair of ratios) and its
/// Wilcoxon signed-rank interval, with the coverage it really has. It is as robust to a wild
/// round as the median of the ratios and about as precise as their mean, so decisions need
/// about two thirds of the rounds the median's interval would. The coverage is exact when the
/// log ratios are symmetric about their centre, as for candidates whose noise is alike. Noise
/// common to a round (the machine busy, clocks low) hits both samples of the round and cancels
/// in its ratio.
struct PairedRatio {
    /// Rounds paired: both samples positive, among the first min(sizes).
    std::size_t rounds = 0;
    RatioInterval interval{1, 1, 1};
    /// The interval's exact coverage: below `confidence` for too few rounds, where it is only
    /// [min, max] of the ratios (or a point); 0 with no round.
    double coverage = 0;
};

/// The paired ratio of sample i of `contender` to sample i of `baseline`, for the first
/// min(sizes) rounds; the interval aims at `confidence`.
PairedRatio paired_ratio(std::span<const double> baseline, std::span<const double> contender,
                         double confidence = 0.95);

}  // namespace spvtune::tune
