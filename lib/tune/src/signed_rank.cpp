#include "signed_rank.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "binomial_half_cdf.hpp"
#include "round_ratios.hpp"

namespace spvtune::tune::detail {
namespace {

/// Up to this many pairs every subset count of the signed-rank statistic (at most 2^50) is
/// exact in a double; the normal approximation is within a rank or so beyond it.
constexpr std::size_t most_exact_pairs = 50;

/// P(W <= w) for w = 0, 1, ..., n(n+1)/2 under the null hypothesis: each of the 2^n sign
/// patterns equally likely, W the sum of the ranks with a positive sign. Exact up to
/// most_exact_pairs, the normal approximation with a continuity correction beyond.
class SignedRankNull {
  public:
    explicit SignedRankNull(std::size_t n) : n_(n) {
        if (n > most_exact_pairs) {
            return;
        }
        const std::size_t most = n * (n + 1) / 2;
        lower_tail_.assign(most + 1, 0.0);
        lower_tail_[0] = 1;
        for (std::size_t rank = 1; rank <= n; ++rank) {
            for (std::size_t sum = most; sum >= rank; --sum) {
                lower_tail_[sum] += lower_tail_[sum - rank];
            }
        }
        const double patterns = std::ldexp(1.0, static_cast<int>(n));
        double below = 0;
        for (double& count : lower_tail_) {
            below += count;
            count = below / patterns;
        }
    }

    double lower_tail(std::size_t w) const {
        if (!lower_tail_.empty()) {
            return lower_tail_[std::min(w, lower_tail_.size() - 1)];
        }
        const auto pairs = static_cast<double>(n_);
        const double mean = pairs * (pairs + 1) / 4;
        const double sd = std::sqrt(pairs * (pairs + 1) * (2 * pairs + 1) / 24);
        return 0.5 * std::erfc(-(static_cast<double>(w) + 0.5 - mean) / (sd * std::sqrt(2.0)));
    }

  private:
    std::size_t n_;
    std::vector<double> lower_tail_;
};

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
    const std::size_t walsh = n * (n + 1) / 2;
    const double allowed_tail = (1 - confidence) / 2;
    const SignedRankNull null(n);
    // The interval [A(k), A(M + 1 - k)] of the sorted Walsh averages misses the centre when
    // W <= k - 1 or W >= M + 1 - k, each with probability P(W <= k - 1): the largest k whose
    // two tails stay within what the confidence allows, at least 1 ([min, max]).
    std::size_t lower = 1;
    while (lower < (walsh + 1) / 2 && null.lower_tail(lower) <= allowed_tail) {
        ++lower;
    }
    return {lower, walsh + 1 - lower, std::max(0.0, 1 - 2 * null.lower_tail(lower - 1))};
}

double signed_rank_p_value(std::span<const double> ratios, double bound) {
    const std::size_t n = ratios.size();
    if (n == 0) {
        return 1;
    }
    if (n > most_walsh_rounds) {
        // The sign test: P(Binomial(n, 1/2) <= the ratios at or below the bound).
        const auto at_most = static_cast<std::size_t>(
            std::count_if(ratios.begin(), ratios.end(), [&](double r) { return r <= bound; }));
        BinomialHalfCdf cdf(n);
        while (cdf.at() < at_most) {
            cdf.next();
        }
        return cdf.value();
    }
    // The Walsh averages above the bound are the signed-rank statistic of the ratios' distances
    // from it, so this test rejects exactly where the interval's low end passes the bound.
    const std::vector<double> walsh = walsh_averages(ratios);
    const double edge = std::log(bound);
    const auto above = static_cast<std::size_t>(
        std::count_if(walsh.begin(), walsh.end(), [&](double w) { return w > edge; }));
    return SignedRankNull(n).lower_tail(walsh.size() - above);
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
    paired.low = std::exp(rank(bounds.lower));
    paired.high = std::exp(rank(bounds.upper));
    paired.ratio =
        m % 2 == 1 ? std::exp(rank(m / 2 + 1)) : std::exp((rank(m / 2) + rank(m / 2 + 1)) / 2);
    paired.coverage = bounds.coverage;
    return paired;
}

}  // namespace spvtune::tune::detail
