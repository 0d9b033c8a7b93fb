#include <algorithm>
#include <vector>

#include <spvtune/tune/comparison.hpp>
#include <spvtune/tune/statistics.hpp>

#include "binomial_half_cdf.hpp"
#include "round_ratios.hpp"

namespace spvtune::tune {

double sign_test_p_value(std::size_t n, std::size_t at_most) {
    // At or past the middle the one tail already holds half the mass.
    if (2 * at_most + 1 >= n) {
        return 1;
    }
    detail::BinomialHalfCdf cdf(n);
    while (cdf.at() < at_most) {
        cdf.next();
    }
    return std::min(1.0, 2 * cdf.value());
}

ContenderComparison judge_paired(std::span<const double> baseline,
                                 std::span<const double> contender, double threshold,
                                 double level) {
    const std::vector<double> ratios = detail::sorted_round_ratios(baseline, contender);
    ContenderComparison judged;
    judged.level = level;
    judged.coverage = 1 - level;
    const std::size_t n = ratios.size();
    if (n == 0) {
        return judged;
    }
    const PairedRatio paired = detail::median_of_ratios(ratios, 1 - level);
    judged.interval = paired.interval;
    judged.coverage = std::min(judged.coverage, paired.coverage);

    // The sign test against each edge of the band: slower when few rounds lie at or below its
    // upper edge, faster when few lie at or above its lower edge, equivalent when few lie
    // beyond either edge.
    const double upper = 1 + threshold;
    const double lower = 1 - threshold;
    const auto count = [&](auto&& predicate) {
        return static_cast<std::size_t>(std::count_if(ratios.begin(), ratios.end(), predicate));
    };
    const double slower = sign_test_p_value(n, count([&](double x) { return x <= upper; }));
    const double faster = sign_test_p_value(n, count([&](double x) { return x >= lower; }));
    const double equivalent =
        std::max(sign_test_p_value(n, count([&](double x) { return x < lower; })),
                 sign_test_p_value(n, count([&](double x) { return x > upper; })));
    judged.p_value = std::min(slower, faster);
    if (slower <= level) {
        judged.verdict = Verdict::slower;
    } else if (faster <= level) {
        judged.verdict = Verdict::faster;
    } else if (equivalent <= level) {
        judged.verdict = Verdict::equivalent;
    } else {
        judged.samples_to_settle = samples_to_settle(judged.interval, n, threshold);
    }
    return judged;
}

}  // namespace spvtune::tune
