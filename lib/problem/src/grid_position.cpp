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
        const std::int64_t value = described.point[axis].second;
        if (std::find(values.begin(), values.end(), value) == values.end()) {
            return std::nullopt;
        }
        // A level is the value's rank, not its place in the file's list: the searches step to
        // neighbouring levels and model time over them, so "WG": [256, 32, 128] must still
        // make 128 the neighbour of 256. (The parser keeps a grid's values distinct.)
        position.levels.push_back(static_cast<std::size_t>(std::count_if(
            values.begin(), values.end(), [value](std::int64_t v) { return v < value; })));
    }
    return position;
}

}  // namespace spvtune::problem
