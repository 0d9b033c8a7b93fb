#include "search_grid.hpp"

#include <algorithm>

namespace spvtune::tune::detail {

GridIndex::GridIndex(const SearchRun& run) {
    for (std::size_t p = 0; p < run.size(); ++p) {
        if (const auto& position = run.point(p).position) {
            at_.emplace(*position, p);
            top_.resize(std::max(top_.size(), position->levels.size()), 0);
            for (std::size_t axis = 0; axis < position->levels.size(); ++axis) {
                top_[axis] = std::max(top_[axis], position->levels[axis]);
            }
        }
    }
}

std::optional<std::size_t> GridIndex::at(const GridPosition& position) const {
    const auto it = at_.find(position);
    return it == at_.end() ? std::nullopt : std::optional(it->second);
}

}  // namespace spvtune::tune::detail
