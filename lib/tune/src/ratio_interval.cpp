#include <algorithm>
#include <cmath>
#include <random>
#include <tuple>
#include <utility>
#include <vector>

#include <spvtune/tune/comparison.hpp>
#include <spvtune/tune/statistics.hpp>

namespace spvtune::tune {
namespace {

/// The median of `values`, reordering them.
double median_in_place(std::vector<double>& values) {
    const std::size_t n = values.size();
    const auto middle = values.begin() + static_cast<std::ptrdiff_t>(n / 2);
    std::nth_element(values.begin(), middle, values.end());
    if (n % 2 == 1) {
        return *middle;
    }
    return (*middle + *std::max_element(values.begin(), middle)) / 2.0;
}

/// The median of a resample (with replacement) of `samples`, drawn with `random`.
/// The index is taken modulo n rather than through std::uniform_int_distribution, whose
/// algorithm differs between standard libraries: the same seed gives the same interval anywhere.
double resampled_median(std::span<const double> samples, std::mt19937_64& random,
                        std::vector<double>& scratch) {
    scratch.resize(samples.size());
    for (double& value : scratch) {
        value = samples[random() % samples.size()];
    }
    return median_in_place(scratch);
}

/// The value below which `fraction` of the sorted values lie (linear interpolation).
double percentile(const std::vector<double>& sorted, double fraction) {
    const double position = fraction * static_cast<double>(sorted.size() - 1);
    const auto below = static_cast<std::size_t>(std::floor(position));
    const std::size_t above = std::min(below + 1, sorted.size() - 1);
    const double weight = position - static_cast<double>(below);
    return sorted[below] * (1 - weight) + sorted[above] * weight;
}

/// The central `confidence` of bootstrap draws (for 0.95, the 2.5th to the 97.5th percentile);
/// `point` twice when there are none.
std::pair<double, double> central(std::vector<double>& draws, double point, double confidence) {
    if (draws.empty()) {
        return {point, point};
    }
    std::sort(draws.begin(), draws.end());
    const double tail = (1 - std::clamp(confidence, 0.0, 1.0)) / 2;
    return {percentile(draws, tail), percentile(draws, 1 - tail)};
}

/// The bootstrap's ratios of resampled medians, contender over baseline (see ratio_interval).
std::vector<double> bootstrap_ratios(std::span<const double> baseline,
                                     std::span<const double> contender,
                                     const ComparisonSettings& settings,
                                     std::vector<double>& scratch) {
    std::mt19937_64 random(settings.seed);
    std::vector<double> ratios;
    ratios.reserve(settings.resamples);
    for (std::size_t i = 0; i < settings.resamples; ++i) {
        const double base = resampled_median(baseline, random, scratch);
        const double other = resampled_median(contender, random, scratch);
        if (base > 0) {
            ratios.push_back(other / base);
        }
    }
    return ratios;
}

}  // namespace

RatioInterval ratio_interval(std::span<const double> baseline, std::span<const double> contender,
                             const ComparisonSettings& settings) {
    std::vector<double> scratch(baseline.begin(), baseline.end());
    const double baseline_median = median_in_place(scratch);
    scratch.assign(contender.begin(), contender.end());
    const double contender_median = median_in_place(scratch);

    std::vector<double> ratios = bootstrap_ratios(baseline, contender, settings, scratch);
    RatioInterval interval;
    interval.ratio = baseline_median > 0 ? contender_median / baseline_median : 0;
    std::tie(interval.low, interval.high) = central(ratios, interval.ratio, settings.confidence);
    return interval;
}

double ratio_p_value(std::span<const double> baseline, std::span<const double> contender,
                     double threshold, const ComparisonSettings& settings) {
    std::vector<double> scratch;
    const std::vector<double> ratios = bootstrap_ratios(baseline, contender, settings, scratch);
    if (ratios.empty()) {
        return 1;
    }
    const auto share = [&](auto&& predicate) {
        return static_cast<double>(std::count_if(ratios.begin(), ratios.end(), predicate)) /
               static_cast<double>(ratios.size());
    };
    // Twice the share of resampled ratios on the near side of an edge: the level of the central
    // interval whose end just reaches that edge.
    const double slower = share([&](double r) { return r <= 1 + threshold; });
    const double faster = share([&](double r) { return r >= 1 - threshold; });
    return std::min(1.0, 2 * std::min(slower, faster));
}

double coefficient_of_variation(std::span<const double> samples) {
    const SampleStatistics statistics = summarize(samples);
    if (statistics.samples < 2 || statistics.mean_ns <= 0) {
        return 0;
    }
    return statistics.stddev_ns / statistics.mean_ns;
}

double robust_coefficient_of_variation(std::span<const double> samples) {
    if (samples.size() < 2) {
        return 0;
    }
    std::vector<double> values(samples.begin(), samples.end());
    const double median = median_in_place(values);
    if (median <= 0) {
        return 0;
    }
    for (double& value : values) {
        value = std::abs(value - median);
    }
    // 1.4826 MAD estimates the standard deviation of normal samples.
    return 1.4826 * median_in_place(values) / median;
}

bool too_noisy_for(double cv, double threshold, std::size_t max_samples) {
    // The median's standard error is about 1.2533 sigma / sqrt(n) for roughly normal samples;
    // the ratio of two medians has about sqrt(2) times that relative error.
    const double half_width =
        1.96 * 1.2533 * std::sqrt(2.0) * cv / std::sqrt(static_cast<double>(max_samples));
    return half_width > threshold / 2;
}

}  // namespace spvtune::tune
