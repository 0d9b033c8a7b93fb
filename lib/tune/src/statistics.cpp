#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include <spvtune/tune/statistics.hpp>

#include "binomial_half_cdf.hpp"
#include "round_ratios.hpp"
#include "signed_rank.hpp"

namespace spvtune::tune {

MedianRanks median_confidence_ranks(std::size_t n, double confidence) {
    if (n == 0) {
        return {};
    }
    const double allowed_tails = 1.0 - confidence;
    // The k-th order statistic lies below the median unless at most k - 1 samples do:
    // P(B <= k - 1) for B ~ Binomial(n, 1/2). The widest symmetric pair whose two tails together
    // stay within what the confidence allows; at least [min, max].
    detail::BinomialHalfCdf cdf(n);
    double below = cdf.value();  // P(B <= lower - 1)
    std::size_t lower = 1;
    while (lower + 1 <= (n + 1) / 2) {
        cdf.next();
        if (2.0 * cdf.value() > allowed_tails) {
            break;
        }
        below = cdf.value();
        ++lower;
    }
    return {lower, n - lower + 1, 1.0 - 2.0 * below};
}

double median_interval_coverage(std::size_t n) {
    return median_confidence_ranks(n).coverage;
}

std::size_t samples_for_coverage(double confidence) {
    // The interval chosen for `confidence` itself: the 95% one stops widening at 95% and never
    // reaches a higher level, however many samples. Certainty no sample count gives.
    confidence = std::min(confidence, 1 - 1e-12);
    std::size_t n = 1;
    while (median_confidence_ranks(n, confidence).coverage < confidence) {
        ++n;
    }
    return n;
}

SampleStatistics summarize(std::span<const double> samples_ns) {
    SampleStatistics out;
    if (samples_ns.empty()) {
        return out;
    }
    std::vector<double> sorted(samples_ns.begin(), samples_ns.end());
    std::sort(sorted.begin(), sorted.end());
    const std::size_t n = sorted.size();
    out.samples = n;
    out.min_ns = sorted.front();
    out.median_ns = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
    out.mean_ns = std::accumulate(sorted.begin(), sorted.end(), 0.0) / static_cast<double>(n);
    if (n > 1) {
        double squares = 0;
        for (const double x : sorted) {
            squares += (x - out.mean_ns) * (x - out.mean_ns);
        }
        out.stddev_ns = std::sqrt(squares / static_cast<double>(n - 1));
    }
    const MedianRanks ranks = median_confidence_ranks(n);
    out.ci_low_ns = sorted[ranks.lower - 1];
    out.ci_high_ns = sorted[ranks.upper - 1];
    return out;
}

bool intervals_overlap(const SampleStatistics& a, const SampleStatistics& b) {
    return a.ci_low_ns <= b.ci_high_ns && b.ci_low_ns <= a.ci_high_ns;
}

double relative_interval_width(const SampleStatistics& statistics) {
    if (statistics.median_ns <= 0) {
        return 0;
    }
    return (statistics.ci_high_ns - statistics.ci_low_ns) / statistics.median_ns;
}

std::vector<double> detail::sorted_round_ratios(std::span<const double> baseline,
                                                std::span<const double> contender) {
    std::vector<double> ratios;
    const std::size_t common = std::min(baseline.size(), contender.size());
    ratios.reserve(common);
    for (std::size_t round = 0; round < common; ++round) {
        if (!(baseline[round] > 0 && contender[round] > 0)) {
            continue;
        }
        // A ratio of 0 or infinity (a time that underflowed or overflowed) has no logarithm.
        const double ratio = contender[round] / baseline[round];
        if (std::isfinite(ratio) && ratio > 0) {
            ratios.push_back(ratio);
        }
    }
    std::sort(ratios.begin(), ratios.end());
    return ratios;
}

PairedRatio detail::median_of_ratios(std::span<const double> sorted_ratios, double confidence) {
    // Ratios sort as their logarithms do, so the order statistics of the ratios are those of
    // the log ratios.
    PairedRatio paired;
    const std::size_t n = sorted_ratios.size();
    if (n == 0) {
        return paired;
    }
    const MedianRanks ranks = median_confidence_ranks(n, confidence);
    paired.rounds = n;
    paired.interval.ratio = n % 2 == 1 ? sorted_ratios[n / 2]
                                       : std::sqrt(sorted_ratios[n / 2 - 1] * sorted_ratios[n / 2]);
    paired.interval.low = sorted_ratios[ranks.lower - 1];
    paired.interval.high = sorted_ratios[ranks.upper - 1];
    paired.coverage = ranks.coverage;
    return paired;
}

PairedRatio paired_ratio(std::span<const double> baseline, std::span<const double> contender,
                         double confidence) {
    return detail::hodges_lehmann_ratio(detail::sorted_round_ratios(baseline, contender),
                                        confidence);
}

}  // namespace spvtune::tune
