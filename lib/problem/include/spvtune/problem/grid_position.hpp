#pragma once

#include <cstddef>
#include <optional>

#include <spvtune/problem/problem.hpp>
#include <spvtune/tune/search.hpp>

namespace spvtune::problem {

/// Where a candidate sits in its family's grid (each grid parameter's value as its rank among
/// that parameter's values, smallest first, whatever order the file lists them in), for
/// searches that move between neighbouring points; none for a candidate of a family without a
/// grid.
std::optional<tune::GridPosition> grid_position(const Problem& problem, std::size_t candidate);

}  // namespace spvtune::problem
