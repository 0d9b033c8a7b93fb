#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <vector>

#include "search_run.hpp"

namespace spvtune::tune::detail {

/// Samples per probe of a point by a search that moves through the grid: the median of three
/// survives one disturbed reading, and a probe's cost is mostly the check run and the pipeline.
inline constexpr std::size_t grid_probe_samples = 3;

/// A grid search does not end before it measured this many points (a space without grid
/// positions has no neighbours: every point is a new start there).
inline constexpr std::size_t grid_min_points = 24;

/// The points of a search by their grid position, and how far each parameter's levels reach.
class GridIndex {
  public:
    explicit GridIndex(const SearchRun& run);

    /// The point at `position`; nullopt when it is outside the space.
    std::optional<std::size_t> at(const GridPosition& position) const;
    /// Per parameter, the highest level any point has.
    const std::vector<std::size_t>& top() const { return top_; }
    /// The level one step up or down from `level` of parameter `axis`; nullopt past either end.
    std::optional<std::size_t> beside(std::size_t axis, std::size_t level, bool up) const {
        if (up ? level < top_[axis] : level > 0) {
            return up ? level + 1 : level - 1;
        }
        return std::nullopt;
    }

  private:
    std::map<GridPosition, std::size_t> at_;
    std::vector<std::size_t> top_;
};

}  // namespace spvtune::tune::detail
