#pragma once

#include <cstddef>
#include <span>
#include <unordered_map>
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
    /// Where each fitted point's covariance lies in a row.
    std::unordered_map<std::size_t, std::size_t> slot_of_;
    /// By scored point, by slot; NaN where not computed yet.
    std::unordered_map<std::size_t, std::vector<double>> rows_;
};

}  // namespace spvtune::tune::detail
