#include "ratio_chart.hpp"

#include <algorithm>
#include <cstdio>

#include "axis.hpp"
#include "chart_layout.hpp"
#include "svg_writer.hpp"

namespace spvtune::html {
namespace {

std::string ratio_text(double ratio) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3gx", ratio);
    return text;
}

}  // namespace

std::string ratio_chart_svg(const std::vector<RatioRow>& rows, double threshold) {
    if (rows.empty()) {
        return {};
    }
    std::vector<RowLabel> labels;
    double low = 1 - threshold;
    double high = 1 + threshold;
    for (const RatioRow& row : rows) {
        labels.push_back({row.label, false});
        low = std::min({low, row.low, row.ratio});
        high = std::max({high, row.high, row.ratio});
    }
    const double plot_left = label_column(labels);
    const double plot_right = chart_width - value_column;
    const double plot_bottom = chart_top + row_height * static_cast<double>(rows.size());
    // Log: a ratio of 2 is as far from 1 as one of 0.5. Fitted to the ratios, not widened to
    // decades (nor a linear axis to round numbers from 0), which would squeeze the band of
    // equivalence, and the ratios in it, into a few pixels.
    const Scale scale = low > 0 ? Scale::fitted_log(low, high, plot_left, plot_right)
                                : Scale::fitting(low, high, plot_left, plot_right, false);

    SvgWriter svg(chart_width, plot_bottom + x_axis_height, "chart ratios",
                  "contender / baseline time ratios with their intervals");
    const double band_left = scale.position(1 - threshold);
    svg.rect(
        band_left, chart_top, scale.position(1 + threshold) - band_left, plot_bottom - chart_top,
        "band",
        "equivalent: within " + ratio_text(1 - threshold) + " to " + ratio_text(1 + threshold));
    draw_x_axis(svg, scale, chart_top, plot_bottom, ratio_text,
                "contender / baseline time (below 1: faster)");
    svg.line(scale.position(1), chart_top, scale.position(1), plot_bottom, "parity");
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const RatioRow& row = rows[i];
        const double middle = chart_top + row_height * (static_cast<double>(i) + 0.5);
        const std::string verdict = "verdict-" + row.verdict;
        svg.text(label_end(plot_left), middle + 4, row_label_text(labels[i], plot_left), "label",
                 SvgWriter::Anchor::end);
        const double from = scale.position(row.low);
        const double to = scale.position(row.high);
        svg.path(whisker_path(from, to, middle), "ci " + verdict);
        svg.circle(scale.position(row.ratio), middle, 4.5, "ratio " + verdict,
                   row.label + ": " + ratio_text(row.ratio) + " (" + ratio_text(row.low) + " to " +
                       ratio_text(row.high) + "), " + row.verdict);
        svg.text(plot_right + 10, middle + 4, ratio_text(row.ratio) + "  " + row.verdict,
                 "value " + verdict);
    }
    return svg.finish();
}

}  // namespace spvtune::html
