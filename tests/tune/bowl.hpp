#pragma once

// A scripted timing surface for the search strategies: a 4-D grid of 6 levels per parameter
// (1,296 points) whose time grows with the squared distance from one best point, so a search
// that finds the best can be told from one that does not.

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include <spvtune/tune/search.hpp>

namespace bowl {

using namespace spvtune::tune;

constexpr std::size_t levels = 6;
constexpr std::size_t dimensions = 4;
constexpr std::size_t size = levels * levels * levels * levels;
constexpr std::array<std::size_t, dimensions> best_levels{4, 1, 3, 2};

/// The point's levels: the first parameter varies slowest, as a grid expands.
inline std::array<std::size_t, dimensions> levels_of(std::size_t index) {
    std::array<std::size_t, dimensions> out{};
    for (std::size_t d = dimensions; d-- > 0;) {
        out[d] = index % levels;
        index /= levels;
    }
    return out;
}

inline std::size_t index_of(const std::array<std::size_t, dimensions>& at) {
    std::size_t index = 0;
    for (const std::size_t level : at) {
        index = index * levels + level;
    }
    return index;
}

inline const std::size_t best_index = index_of(best_levels);

/// 100 ns at the best point, 10% more per squared step away from it.
inline double time_ns(std::size_t index) {
    const auto at = levels_of(index);
    double distance = 0;
    for (std::size_t d = 0; d < dimensions; ++d) {
        const double step = static_cast<double>(at[d]) - static_cast<double>(best_levels[d]);
        distance += step * step;
    }
    return 100.0 * (1.0 + 0.1 * distance);
}

inline std::vector<std::string> names() {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < size; ++i) {
        out.push_back("p" + std::to_string(i));
    }
    return out;
}

/// Every point, with its grid position; `names` must outlive them (the names are views).
inline std::vector<SearchPoint> points(const std::vector<std::string>& names) {
    std::vector<SearchPoint> out;
    for (std::size_t i = 0; i < size; ++i) {
        const auto at = levels_of(i);
        out.push_back({{i, names[i], 0}, GridPosition{0, {at.begin(), at.end()}}});
    }
    return out;
}

}  // namespace bowl
