#include "html_heatmaps.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "html_measured.hpp"
#include "html_report/heatmap.hpp"
#include "html_sections.hpp"
#include "key_table.hpp"

namespace spvtune::app {
namespace {

html::HeatCell heat_cell(const JsonView& candidate) {
    html::HeatCell cell;
    const std::string name = candidate["name"].string();
    const std::string status = candidate["status"].string();
    cell.winner = status == "winner";
    cell.tooltip = name + ": " + status;
    if (const auto reason = candidate.find("reason")) {
        cell.tooltip += ": " + reason->string();
    }
    if (const auto times = measured(candidate)) {
        cell.state = html::HeatCell::State::measured;
        cell.median_ns = times->median_ns;
        cell.tooltip += ", median " + format_duration_ns(times->median_ns);
    } else if (status == "skipped") {
        cell.state = html::HeatCell::State::skipped;
    } else if (status == "not run" || status == "unchecked") {
        cell.state = html::HeatCell::State::not_run;
    } else {
        cell.state = html::HeatCell::State::failed;
    }
    return cell;
}

/// A family's two-parameter grid with the key's candidates of that family in it, drawn over
/// the grid's rows and columns that hold one of them (a report may list a grid far larger than
/// what it ran: 1000 x 1000 values for two points), at most `most_drawn` of each.
struct FamilyHeatmap {
    std::string family;
    html::Heatmap heatmap;
    /// What was left out, for a note under the heatmap; empty when the whole grid is drawn.
    std::string left_out;
};

/// At most this many of a parameter's values are drawn: 100 x 100 cells, about 4 MB of page.
constexpr std::size_t most_drawn = 100;

/// One axis of the grid: its values, where each is, and the best median of the key's
/// candidates in each (+infinity where one lies but none was measured).
struct Axis {
    std::string parameter;
    std::vector<std::int64_t> values;
    std::map<std::int64_t, std::size_t> position;
    std::map<std::size_t, double> best;  ///< by position, only where a candidate lies

    explicit Axis(const JsonView& dimension) : parameter(dimension["parameter"].string()) {
        for (const JsonView& value : dimension["values"].elements()) {
            values.push_back(static_cast<std::int64_t>(value.number()));
            position.try_emplace(values.back(), values.size() - 1);
        }
    }

    /// A candidate at `at`, with its median (+infinity when it has none).
    void note(std::size_t at, double median_ns) {
        double& kept = best.try_emplace(at, median_ns).first->second;
        kept = std::min(kept, median_ns);
    }

    /// The positions drawn, by ascending value (the order the searches step in, whatever
    /// order the grid lists): those where a candidate lies, at most most_drawn, the fastest
    /// first when there are more.
    std::vector<std::size_t> drawn() const {
        std::vector<std::pair<double, std::size_t>> ranked;
        for (const auto& [at, median_ns] : best) {
            ranked.emplace_back(median_ns, at);
        }
        if (ranked.size() > most_drawn) {
            std::stable_sort(ranked.begin(), ranked.end());
            ranked.resize(most_drawn);
        }
        std::vector<std::size_t> kept;
        for (const auto& [median_ns, at] : ranked) {
            kept.push_back(at);
        }
        std::sort(kept.begin(), kept.end(),
                  [this](std::size_t a, std::size_t b) { return values[a] < values[b]; });
        return kept;
    }

    /// "2 of the 1000 values of A" when values are left out, else "".
    std::string left_out(std::size_t drawn_count) const {
        if (drawn_count == values.size()) {
            return "";
        }
        std::string text = std::to_string(drawn_count) + " of the " +
                           std::to_string(values.size()) + " values of " + parameter;
        if (best.size() > most_drawn) {
            text += " (the " + std::to_string(most_drawn) + " with the fastest points of the " +
                    std::to_string(best.size()) + " where a candidate lies)";
        }
        return text;
    }
};

FamilyHeatmap family_heatmap(const JsonView& family, const std::vector<JsonView>& grid,
                             const JsonView& key) {
    FamilyHeatmap made{family["name"].string(), {}, {}};
    Axis rows(grid[0]);
    Axis columns(grid[1]);
    // The key's candidates of the family, by grid position.
    std::map<std::pair<std::size_t, std::size_t>, html::HeatCell> placed;
    for (const JsonView& candidate : key["candidates"].elements()) {
        const auto belongs = candidate.find("family");
        if (!belongs || belongs->string() != made.family) {
            continue;
        }
        const JsonView point = candidate["point"];
        const auto row =
            rows.position.find(static_cast<std::int64_t>(point[rows.parameter].number()));
        const auto column =
            columns.position.find(static_cast<std::int64_t>(point[columns.parameter].number()));
        if (row == rows.position.end() || column == columns.position.end()) {
            point.fail("a point of the family's grid");
        }
        html::HeatCell cell = heat_cell(candidate);
        const double median_ns = cell.state == html::HeatCell::State::measured
                                     ? cell.median_ns
                                     : std::numeric_limits<double>::infinity();
        rows.note(row->second, median_ns);
        columns.note(column->second, median_ns);
        placed[{row->second, column->second}] = std::move(cell);
    }
    const std::vector<std::size_t> drawn_rows = rows.drawn();
    const std::vector<std::size_t> drawn_columns = columns.drawn();
    html::Heatmap& heatmap = made.heatmap;
    heatmap.row_parameter = rows.parameter;
    heatmap.column_parameter = columns.parameter;
    for (const std::size_t r : drawn_rows) {
        heatmap.rows.push_back(rows.values[r]);
    }
    for (const std::size_t c : drawn_columns) {
        heatmap.columns.push_back(columns.values[c]);
    }
    heatmap.cells.reserve(drawn_rows.size() * drawn_columns.size());
    for (const std::size_t r : drawn_rows) {
        for (const std::size_t c : drawn_columns) {
            if (const auto found = placed.find({r, c}); found != placed.end()) {
                heatmap.cells.push_back(std::move(found->second));
                continue;
            }
            html::HeatCell cell;
            cell.tooltip = made.family + "[" + rows.parameter + "=" +
                           std::to_string(rows.values[r]) + "," + columns.parameter + "=" +
                           std::to_string(columns.values[c]) +
                           "]: not a candidate (a constraint or a missing file)";
            heatmap.cells.push_back(std::move(cell));
        }
    }
    const std::string rows_left = rows.left_out(drawn_rows.size());
    const std::string columns_left = columns.left_out(drawn_columns.size());
    if (placed.empty()) {
        made.left_out = "No candidate of this key lies in this grid.";
    } else if (!rows_left.empty() || !columns_left.empty()) {
        const std::uintmax_t all = std::uintmax_t{rows.values.size()} * columns.values.size();
        const std::uintmax_t shown = std::uintmax_t{drawn_rows.size()} * drawn_columns.size();
        made.left_out =
            "Drawn where a candidate of this key lies: " +
            (rows_left.empty() ? "every value of " + rows.parameter : rows_left) + ", " +
            (columns_left.empty() ? "every value of " + columns.parameter : columns_left) + "; " +
            std::to_string(all - shown) + " of the grid's " + std::to_string(all) +
            " points are left out.";
    }
    return made;
}

/// The key's fastest median of any candidate, in a grid or not.
std::optional<double> best_median(const JsonView& key) {
    std::optional<double> best;
    for (const JsonView& candidate : key["candidates"].elements()) {
        if (const auto times = measured(candidate)) {
            best = std::min(best.value_or(times->median_ns), times->median_ns);
        }
    }
    return best;
}

}  // namespace

std::string key_heatmaps(const JsonView& problem, const JsonView& key) {
    const auto families = problem.find("families");
    if (!families) {
        return "";  // a report from before families were recorded
    }
    std::vector<FamilyHeatmap> drawn;
    for (const JsonView& family : families->elements()) {
        const std::vector<JsonView> grid = family["grid"].elements();
        if (grid.size() == 2) {
            drawn.push_back(family_heatmap(family, grid, key));
        }
    }
    if (drawn.empty()) {
        return "";
    }
    std::vector<html::Heatmap> heatmaps;
    for (const FamilyHeatmap& family : drawn) {
        heatmaps.push_back(family.heatmap);
    }
    // Each heatmap on its own range would make every family's fastest point green, a losing
    // family's too. Without a measured candidate no cell is coloured, and the range is unused.
    const std::optional<double> best = best_median(key);
    const html::HeatRange range = html::shared_heat_range(heatmaps, best.value_or(0));
    std::string out;
    for (const FamilyHeatmap& family : drawn) {
        const html::Heatmap& heatmap = family.heatmap;
        out += "<h4>" + html_text(family.family) + ": median time over " +
               html_text(heatmap.row_parameter) + " &#215; " + html_text(heatmap.column_parameter) +
               "</h4>\n";
        if (!heatmap.cells.empty()) {
            out += html::heatmap_svg(heatmap, format_duration_ns, range);
        }
        if (!family.left_out.empty()) {
            out += "<p class=\"legend\">" + html_text(family.left_out) + "</p>\n";
        }
    }
    if (best) {
        out +=
            "<p class=\"legend\">One colour scale for every grid of this key: green is the "
            "key's fastest candidate (" +
            html_text(format_duration_ns(range.fastest_ns)) +
            "), orange the slowest point drawn (" +
            html_text(format_duration_ns(range.slowest_ns)) + ").</p>\n";
    }
    return out;
}

}  // namespace spvtune::app
