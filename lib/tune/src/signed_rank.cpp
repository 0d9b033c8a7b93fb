#include "signed_rank.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>
#include <vector>

#include <spvtune/tune/comparison.hpp>

#include "round_ratios.hpp"

namespace spvtune::tune::detail {
namespace {

/// P(W <= w) for w = 0, 1, ..., n(n+1)/2 under the null hypothesis, exactly: W is the sum of
/// the ranks 1..n that carry a positive sign, each sign equally likely. Built rank by rank in
/// probabilities (each step halves), which stay well inside a double's range for every n the
/// Walsh averages are used for (2^-256 at the least).
std::vector<double> exact_lower_tail(std::size_t n) {
    const std::size_t most = n * (n + 1) / 2;
    std::vector<double> tail(most + 1, 0.0);
    tail[0] = 1;
    for (std::size_t rank = 1; rank <= n; ++rank) {
        for (std::size_t sum = rank * (rank + 1) / 2 + 1; sum-- > 0;) {
            tail[sum] = (tail[sum] + (sum >= rank ? tail[sum - rank] : 0.0)) / 2;
        }
    }
    double below = 0;
    for (double& probability : tail) {
        below += probability;
        probability = std::min(below, 1.0);
    }
    return tail;
}

/// exact_lower_tail(n), kept for the last n asked on this thread: the race asks for the same n
/// for every pair of a round, and building it costs about n^3 / 6 steps.
const std::vector<double>& lower_tail_of(std::size_t n) {
    thread_local std::size_t cached_n = 0;
    thread_local std::vector<double> cached = exact_lower_tail(0);
    if (cached_n != n) {
        cached = exact_lower_tail(n);
        cached_n = n;
    }
    return cached;
}

/// The n(n+1)/2 Walsh averages of the ratios' logarithms: the mean of every pair, each ratio
/// with itself included.
std::vector<double> walsh_averages(std::span<const double> ratios) {
    std::vector<double> logs;
    logs.reserve(ratios.size());
    for (const double ratio : ratios) {
        logs.push_back(std::log(ratio));
    }
    std::vector<double> walsh;
    walsh.reserve(logs.size() * (logs.size() + 1) / 2);
    for (std::size_t i = 0; i < logs.size(); ++i) {
        for (std::size_t j = i; j < logs.size(); ++j) {
            walsh.push_back((logs[i] + logs[j]) / 2);
        }
    }
    return walsh;
}

}  // namespace

SignedRankBounds signed_rank_bounds(std::size_t n, double confidence) {
    if (n == 0) {
        return {};
    }
    // Each decision of a race asks again for the same few (n, confidence).
    thread_local std::map<std::pair<std::size_t, double>, SignedRankBounds> known;
    if (const auto found = known.find({n, confidence}); found != known.end()) {
        return found->second;
    }
    const std::size_t walsh = n * (n + 1) / 2;
    const double allowed_tail = (1 - confidence) / 2;
    const std::vector<double>& tail = lower_tail_of(n);
    // The interval [A(k), A(M + 1 - k)] of the sorted Walsh averages misses the centre when
    // W <= k - 1 or W >= M + 1 - k, each with probability P(W <= k - 1): the largest k whose
    // two tails stay within what the confidence allows, at least 1 ([min, max]).
    std::size_t lower = 1;
    while (lower < (walsh + 1) / 2 && tail[lower] <= allowed_tail) {
        ++lower;
    }
    const SignedRankBounds bounds{lower, walsh + 1 - lower, std::max(0.0, 1 - 2 * tail[lower - 1])};
    known.emplace(std::pair{n, confidence}, bounds);
    return bounds;
}

double signed_rank_p_value(std::span<const double> ratios, double bound) {
    const std::size_t n = ratios.size();
    if (n == 0) {
        return 1;
    }
    if (n > most_walsh_rounds) {
        // The sign test's one tail: half its two-sided p-value (0.5 where that is 1, past the
        // middle, where no level rejects).
        const auto at_most = static_cast<std::size_t>(
            std::count_if(ratios.begin(), ratios.end(), [&](double r) { return r <= bound; }));
        return sign_test_p_value(n, at_most) / 2;
    }
    // The Walsh averages above the bound are the signed-rank statistic of the ratios' distances
    // from it, so this test rejects exactly where the interval's low end passes the bound.
    const std::vector<double> walsh = walsh_averages(ratios);
    const double edge = std::log(bound);
    const auto above = static_cast<std::size_t>(
        std::count_if(walsh.begin(), walsh.end(), [&](double w) { return w > edge; }));
    return lower_tail_of(n)[walsh.size() - above];
}

PairedRatio hodges_lehmann_ratio(std::span<const double> ratios, double confidence) {
    const std::size_t n = ratios.size();
    if (n == 0) {
        return {};
    }
    if (n > most_walsh_rounds) {
        std::vector<double> sorted(ratios.begin(), ratios.end());
        std::sort(sorted.begin(), sorted.end());
        return median_of_ratios(sorted, confidence);
    }
    std::vector<double> walsh = walsh_averages(ratios);
    const auto rank = [&](std::size_t one_based) {
        const auto at = walsh.begin() + static_cast<std::ptrdiff_t>(one_based - 1);
        std::nth_element(walsh.begin(), at, walsh.end());
        return *at;
    };
    const std::size_t m = walsh.size();
    const SignedRankBounds bounds = signed_rank_bounds(n, confidence);
    PairedRatio paired;
    paired.rounds = n;
    paired.interval.low = std::exp(rank(bounds.lower));
    paired.interval.high = std::exp(rank(bounds.upper));
    paired.interval.ratio =
        m % 2 == 1 ? std::exp(rank(m / 2 + 1)) : std::exp((rank(m / 2) + rank(m / 2 + 1)) / 2);
    paired.coverage = bounds.coverage;
    return paired;
}

}  // namespace spvtune::tune::detail
