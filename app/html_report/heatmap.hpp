#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "scale.hpp"

namespace spvtune::html {

/// A point of a two-parameter grid: its median when measured, else what became of it.
struct HeatCell {
    enum class State { measured, missing, failed, skipped, not_run };

    State state = State::missing;  ///< missing: the point is not a candidate
    double median_ns = 0;          ///< when measured
    bool winner = false;
    std::string tooltip;
};

/// The median time over the grid of one family: rows are the first parameter's values, columns
/// the second's, `cells` row by row (rows.size() * columns.size() of them).
struct Heatmap {
    std::string row_parameter;
    std::string column_parameter;
    std::vector<std::int64_t> rows;
    std::vector<std::int64_t> columns;
    std::vector<HeatCell> cells;
};

/// The medians heatmaps are coloured between: `fastest_ns` green, `slowest_ns` orange.
struct HeatRange {
    double fastest_ns = 0;
    double slowest_ns = 0;
};

/// The one range every heatmap of a key is coloured on, so that a family slower than another
/// shows no green: from `best_ns`, the key's fastest median (its winner may be in no grid), to
/// the slowest measured cell of any of `heatmaps` (`best_ns` when none was measured).
HeatRange shared_heat_range(const std::vector<Heatmap>& heatmaps, double best_ns);

/// One <rect class="cell ..."> per grid point with its median (or its state) written in it:
/// measured points coloured by where their median lies in `range`, from green (fastest) to
/// orange (slowest), on a log scale when it spans more than Scale::wide_range; other states
/// grey with the state's name; the winner outlined. Throws std::invalid_argument when the cell
/// count does not match the grid.
std::string heatmap_svg(const Heatmap& heatmap, const ValueFormat& format, const HeatRange& range);

/// The fill of a measured cell at `fraction` (0: fastest, 1: slowest) as "#rrggbb".
std::string heat_colour(double fraction);

}  // namespace spvtune::html
