#pragma once

#include <cstddef>
#include <span>

#include <spvtune/tune/statistics.hpp>

namespace spvtune::tune::detail {

/// The 1-based ranks, among the n(n+1)/2 Walsh averages of n paired differences, of the ends of
/// the Wilcoxon signed-rank interval aiming at `confidence`, and the coverage it really has
/// (from the exact null distribution). Too few pairs for `confidence` give [min, max] and its
/// lower coverage; none give {1, 1, 0}.
struct SignedRankBounds {
    std::size_t lower = 1;
    std::size_t upper = 1;
    double coverage = 0;
};

SignedRankBounds signed_rank_bounds(std::size_t n, double confidence);

/// The Hodges-Lehmann estimate of paired ratios (the median of the geometric means of every
/// pair of them, each with itself included) with its signed-rank interval: as robust to a
/// wild round as the median of the ratios, and as precise as a mean of well-behaved ones, so a
/// decision needs about two thirds of the rounds the median's interval would. Exact coverage
/// assumes the log ratios are symmetric about their centre, as they are for candidates whose
/// noise is alike. Past `most_walsh_rounds` ratios, whose pairs grow with the square, the
/// median of ratios and its order-statistic interval.
PairedRatio hodges_lehmann_ratio(std::span<const double> ratios, double confidence);

inline constexpr std::size_t most_walsh_rounds = 256;

/// The one-sided p-value of the signed-rank test that the ratios' centre lies above `bound`:
/// the chance, were it at the bound, that as many Walsh averages would lie above it (exact).
/// Once there are pairs enough for the 1 - alpha interval of hodges_lehmann_ratio to reach its
/// level (6 at 95%), it is at most alpha / 2 exactly when that interval lies above the bound,
/// up to rounding at the bound itself; beyond most_walsh_rounds, the sign test that matches the
/// median's interval.
double signed_rank_p_value(std::span<const double> ratios, double bound);

}  // namespace spvtune::tune::detail
