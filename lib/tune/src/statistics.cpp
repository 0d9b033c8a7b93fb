#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include <spvtune/tune/statistics.hpp>

namespace spvtune::tune {

MedianRanks median_confidence_ranks(std::size_t n, double confidence) {
    if (n == 0) {
        return {};
    }
    const double allowed_tails = 1.0 - confidence;
    const auto count = static_cast<double>(n);
    // P(B <= k) for B ~ Binomial(n, 1/2), the probability that at most k samples fall below the
    // median. The pmf is stepped in log space so that large n does not underflow.
    double log_pmf = -count * std::log(2.0);
    double below = std::exp(log_pmf);  // P(B <= lower - 1) for lower == 1
    std::size_t lower = 1;
    while (lower + 1 <= (n + 1) / 2) {
        const auto k = static_cast<double>(lower);
        log_pmf += std::log(count - k + 1.0) - std::log(k);
        const double next = below + std::exp(log_pmf);
        if (2.0 * next > allowed_tails) {
            break;
        }
        below = next;
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

}  // namespace spvtune::tune
