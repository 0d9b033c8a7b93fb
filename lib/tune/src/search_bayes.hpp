#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "search_grid.hpp"
#include "search_surrogate.hpp"

namespace spvtune::tune::detail {

/// Bayesian optimisation's choice of the next point, for any strategy that wants one: the
/// unmeasured point whose expected improvement on the fastest point measured so far is largest
/// under a LogTimeSurrogate of every measured point, among a seeded sample of the space and that
/// point's neighbours one level away in one or two parameters; points in seeded order while too
/// few are measured to fit or no unmeasured point has a grid position.
class BayesProposer {
  public:
    explicit BayesProposer(SearchRun& run);

    /// Nullopt when every point is measured.
    std::optional<std::size_t> next(const SearchRun& run);

  private:
    GridIndex grid_;
    std::vector<std::size_t> order_;
    std::optional<LogTimeSurrogate::Settings> fitted_;
    std::size_t fitted_at_ = 0;
};

}  // namespace spvtune::tune::detail
