#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace spvtune::tune::detail {

/// Walks P(Binomial(n, 1/2) <= i) for i = 0, 1, ...: the tail probabilities behind both the
/// median's order-statistic interval and the sign test. Each term comes from the last in
/// logarithms, since 2^-n underflows long before n reaches the rounds a comparison may take.
class BinomialHalfCdf {
  public:
    explicit BinomialHalfCdf(std::size_t n)
        : n_(n), log_term_(-static_cast<double>(n) * std::log(2.0)), sum_(std::exp(log_term_)) {}

    /// P(Bin(n, 1/2) <= at()).
    double value() const { return std::min(sum_, 1.0); }

    /// Moves to at() + 1; at() must stay below n.
    void next() {
        log_term_ += std::log(static_cast<double>(n_ - i_)) - std::log(static_cast<double>(i_ + 1));
        ++i_;
        sum_ += std::exp(log_term_);
    }

    std::size_t at() const { return i_; }

  private:
    std::size_t n_;
    std::size_t i_ = 0;
    double log_term_;
    double sum_;
};

}  // namespace spvtune::tune::detail
