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

}  // namespace spvtune::tune
