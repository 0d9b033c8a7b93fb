#pragma once

#include <span>
#include <vector>

#include <spvtune/tune/statistics.hpp>

namespace spvtune::tune::detail {

/// The ratios contender[i] / baseline[i] of samples taken in interleaved rounds, over the first
/// min(sizes) rounds, sorted. A round with a non-positive time, or whose ratio is 0 or infinite,
/// has no ratio and is left out.
std::vector<double> sorted_round_ratios(std::span<const double> baseline,
                                        std::span<const double> contender);

/// The median of sorted ratios (the geometric mean of the middle two for an even count, so that
/// a round twice as slow and one twice as fast weigh alike) and its order-statistic interval
/// aiming at `confidence`: what the race and compare both judge rounds by.
PairedRatio median_of_ratios(std::span<const double> sorted_ratios, double confidence);

}  // namespace spvtune::tune::detail
