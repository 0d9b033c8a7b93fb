#include <algorithm>

#include <spvtune/problem/grid_position.hpp>

namespace spvtune::problem {

std::optional<tune::GridPosition> grid_position(const Problem& problem, std::size_t candidate) {
    const Candidate& described = problem.candidates.at(candidate);
    const CandidateFamily& family = problem.families.at(described.family);
    // The point holds the grid's values first, then the family's `let` values.
    if (family.grid.empty() || described.point.size() < family.grid.size()) {
        return std::nullopt;
    }
    tune::GridPosition position;
    position.family = described.family;
    for (std::size_t axis = 0; axis < family.grid.size(); ++axis) {
        const std::vector<std::int64_t>& values = family.grid[axis].values;
        const auto at = std::find(values.begin(), values.end(), described.point[axis].second);
        if (at == values.end()) {
            return std::nullopt;
        }
        position.levels.push_back(static_cast<std::size_t>(at - values.begin()));
    }
    return position;
}

}  // namespace spvtune::problem
