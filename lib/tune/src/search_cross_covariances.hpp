#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "search_surrogate.hpp"

namespace spvtune::tune::detail {

/// The covariances of the points a BayesProposer scores with the points its surrogate is fitted
/// to, kept between proposals while the surrogate's settings stay (they are searched again only
/// every few points): the pool of points scored and the fitted points change by a point or two
/// a proposal, and computing every covariance anew took two fifths of a replayed search.
class CrossCovariances {
  public:
    /// Forgets every covariance: the settings they were computed with are replaced.
    void clear();

    /// For each of `points`, its covariances with the fitted points, which are the points
    /// `fitted` in `surrogate`'s order: those kept, the others computed by `surrogate` from
    /// `inputs`, every point's surrogate input by point, and kept.
    std::vector<std::vector<double>> rows(std::span<const std::size_t> points,
                                          std::span<const SurrogateInput> inputs,
                                          std::span<const std::size_t> fitted,
                                          const LogTimeSurrogate& surrogate);

  private:
    static constexpr std::size_t no_slot = static_cast<std::size_t>(-1);
    /// By point, where its covariance lies in a row, once it was a fitted point (no_slot
    /// before). Vectors by point rather than maps: two thousand rows are looked up a proposal.
    std::vector<std::size_t> slot_of_;
    std::size_t slots_ = 0;
    /// By scored point, by slot; NaN where not computed yet.
    std::vector<std::vector<double>> rows_;
};

}  // namespace spvtune::tune::detail
