#include "html_heatmaps.hpp"

#include <algorithm>
#include <cstdint>
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
    } else if (status == "not run") {
        cell.state = html::HeatCell::State::not_run;
    } else {
        cell.state = html::HeatCell::State::failed;
    }
    return cell;
}

/// A family's two-parameter grid with the key's candidates of that family in it.
struct FamilyHeatmap {
    std::string family;
    html::Heatmap heatmap;
};

FamilyHeatmap family_heatmap(const JsonView& family, const std::vector<JsonView>& grid,
                             const JsonView& key) {
    FamilyHeatmap made{family["name"].string(), {}};
    html::Heatmap& heatmap = made.heatmap;
    heatmap.row_parameter = grid[0]["parameter"].string();
    heatmap.column_parameter = grid[1]["parameter"].string();
    for (const JsonView& value : grid[0]["values"].elements()) {
        heatmap.rows.push_back(static_cast<std::int64_t>(value.number()));
    }
    for (const JsonView& value : grid[1]["values"].elements()) {
        heatmap.columns.push_back(static_cast<std::int64_t>(value.number()));
    }
    heatmap.cells.resize(heatmap.rows.size() * heatmap.columns.size());
    std::map<std::pair<std::int64_t, std::int64_t>, std::size_t> index;
    for (std::size_t r = 0; r < heatmap.rows.size(); ++r) {
        for (std::size_t c = 0; c < heatmap.columns.size(); ++c) {
            const std::size_t at = r * heatmap.columns.size() + c;
            index[{heatmap.rows[r], heatmap.columns[c]}] = at;
            heatmap.cells[at].tooltip =
                made.family + "[" + heatmap.row_parameter + "=" + std::to_string(heatmap.rows[r]) +
                "," + heatmap.column_parameter + "=" + std::to_string(heatmap.columns[c]) +
                "]: not a candidate (a constraint or a missing file)";
        }
    }
    for (const JsonView& candidate : key["candidates"].elements()) {
        const auto belongs = candidate.find("family");
        if (!belongs || belongs->string() != made.family) {
            continue;
        }
        const JsonView point = candidate["point"];
        const auto at =
            index.find({static_cast<std::int64_t>(point[heatmap.row_parameter].number()),
                        static_cast<std::int64_t>(point[heatmap.column_parameter].number())});
        if (at == index.end()) {
            point.fail("a point of the family's grid");
        }
        heatmap.cells[at->second] = heat_cell(candidate);
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
               "</h4>\n" + html::heatmap_svg(heatmap, format_duration_ns, range);
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
