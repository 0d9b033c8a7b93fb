#include "heatmap.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "svg_writer.hpp"

namespace spvtune::html {
namespace {

constexpr double cell_width = 92;
constexpr double cell_height = 34;
constexpr double header = 40;  ///< room above the columns for their parameter and values

std::string state_class(HeatCell::State state) {
    switch (state) {
        case HeatCell::State::measured:
            return "measured";
        case HeatCell::State::missing:
            return "missing";
        case HeatCell::State::failed:
            return "failed";
        case HeatCell::State::skipped:
            return "skipped";
        case HeatCell::State::not_run:
            break;
    }
    return "not-run";
}

/// The word in a cell that holds no time: its class read as words ("not-run" is "not run").
std::string state_text(HeatCell::State state) {
    if (state == HeatCell::State::measured) {
        return "";
    }
    std::string text = state_class(state);
    std::replace(text.begin(), text.end(), '-', ' ');
    return text;
}

}  // namespace

std::string heat_colour(double fraction) {
    // Green, pale yellow, orange: light enough everywhere for dark text.
    static constexpr std::array<std::array<double, 3>, 3> stops{
        {{102, 189, 99}, {255, 255, 191}, {244, 109, 67}}};
    fraction = std::clamp(std::isfinite(fraction) ? fraction : 0.0, 0.0, 1.0);
    const std::size_t segment = fraction < 0.5 ? 0 : 1;
    const double t = fraction < 0.5 ? fraction * 2 : fraction * 2 - 1;
    char text[8];
    std::array<int, 3> rgb{};
    for (std::size_t c = 0; c < 3; ++c) {
        rgb[c] = static_cast<int>(
            std::lround(stops[segment][c] + (stops[segment + 1][c] - stops[segment][c]) * t));
    }
    std::snprintf(text, sizeof text, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
    return text;
}

HeatRange shared_heat_range(const std::vector<Heatmap>& heatmaps, double best_ns) {
    HeatRange range{best_ns, best_ns};
    for (const Heatmap& heatmap : heatmaps) {
        for (const HeatCell& cell : heatmap.cells) {
            if (cell.state == HeatCell::State::measured) {
                range.fastest_ns = std::min(range.fastest_ns, cell.median_ns);
                range.slowest_ns = std::max(range.slowest_ns, cell.median_ns);
            }
        }
    }
    return range;
}

std::string heatmap_svg(const Heatmap& heatmap, const ValueFormat& format, const HeatRange& range) {
    if (heatmap.cells.size() != heatmap.rows.size() * heatmap.columns.size()) {
        throw std::invalid_argument("heatmap: " + std::to_string(heatmap.cells.size()) +
                                    " cells for a grid of " + std::to_string(heatmap.rows.size()) +
                                    " x " + std::to_string(heatmap.columns.size()));
    }
    const double fastest = range.fastest_ns;
    const double slowest = range.slowest_ns;
    // Colour by position on the scale the bars use: linear, or log when the range is wide.
    const Scale scale = fastest > 0 && slowest / fastest > Scale::wide_range
                            ? Scale::log(fastest, slowest, 0, 1)
                            : Scale::linear(fastest, slowest, 0, 1);
    const auto fraction = [&](double ns) {
        if (slowest <= fastest) {
            return 0.0;
        }
        return (scale.position(ns) - scale.position(fastest)) /
               (scale.position(slowest) - scale.position(fastest));
    };

    const double left =
        16 + 8 * static_cast<double>(std::max<std::size_t>(heatmap.row_parameter.size() + 6, 8));
    const double width = left + cell_width * static_cast<double>(heatmap.columns.size()) + 8;
    const double height = header + cell_height * static_cast<double>(heatmap.rows.size()) + 8;
    SvgWriter svg(width, height, "chart heatmap",
                  "median time over the grid of " + heatmap.row_parameter + " and " +
                      heatmap.column_parameter);
    svg.text(left + cell_width * static_cast<double>(heatmap.columns.size()) / 2, 14,
             heatmap.column_parameter, "axis-title", SvgWriter::Anchor::middle);
    svg.text(8, header - 8, heatmap.row_parameter + " \\ " + heatmap.column_parameter,
             "axis-title");
    for (std::size_t c = 0; c < heatmap.columns.size(); ++c) {
        svg.text(left + cell_width * (static_cast<double>(c) + 0.5), header - 8,
                 std::to_string(heatmap.columns[c]), "tick", SvgWriter::Anchor::middle);
    }
    for (std::size_t r = 0; r < heatmap.rows.size(); ++r) {
        const double top = header + cell_height * static_cast<double>(r);
        svg.text(left - 8, top + cell_height / 2 + 4, std::to_string(heatmap.rows[r]), "tick",
                 SvgWriter::Anchor::end);
        for (std::size_t c = 0; c < heatmap.columns.size(); ++c) {
            const HeatCell& cell = heatmap.cells[r * heatmap.columns.size() + c];
            const double x = left + cell_width * static_cast<double>(c);
            const bool measured = cell.state == HeatCell::State::measured;
            svg.rect(x + 1, top + 1, cell_width - 2, cell_height - 2,
                     "cell " + state_class(cell.state) + (cell.winner ? " winner" : ""),
                     cell.tooltip, measured ? heat_colour(fraction(cell.median_ns)) : "");
            svg.text(x + cell_width / 2, top + cell_height / 2 + 4,
                     measured ? format(cell.median_ns) : state_text(cell.state),
                     "cell-text" + std::string(cell.winner ? " winner" : ""),
                     SvgWriter::Anchor::middle);
        }
    }
    return svg.finish();
}

}  // namespace spvtune::html
