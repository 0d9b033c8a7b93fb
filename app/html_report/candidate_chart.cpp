#include "candidate_chart.hpp"

#include <algorithm>

#include "axis.hpp"
#include "chart_layout.hpp"
#include "svg_writer.hpp"

namespace spvtune::html {
namespace {

std::string mark_class(CandidateRow::Mark mark) {
    switch (mark) {
        case CandidateRow::Mark::winner:
            return "winner";
        case CandidateRow::Mark::tied:
            return "tied";
        case CandidateRow::Mark::other:
            break;
    }
    return "other";
}

/// The label beside a row: its class, but nothing for an ordinary candidate.
std::string mark_text(CandidateRow::Mark mark) {
    return mark == CandidateRow::Mark::other ? "" : mark_class(mark);
}

/// The smallest and largest value any row draws: samples, interval and median.
std::pair<double, double> value_range(const std::vector<CandidateRow>& rows) {
    double low = rows.front().median_ns;
    double high = low;
    for (const CandidateRow& row : rows) {
        for (const double value : {row.median_ns, row.ci_low_ns, row.ci_high_ns}) {
            low = std::min(low, value);
            high = std::max(high, value);
        }
        for (const double sample : row.samples_ns) {
            low = std::min(low, sample);
            high = std::max(high, sample);
        }
    }
    return {low, high};
}

}  // namespace

std::string candidate_chart_svg(std::vector<CandidateRow> rows, const ValueFormat& format) {
    if (rows.empty()) {
        return {};
    }
    std::stable_sort(rows.begin(), rows.end(), [](const CandidateRow& a, const CandidateRow& b) {
        return a.median_ns < b.median_ns;
    });
    std::vector<RowLabel> labels;
    for (const CandidateRow& row : rows) {
        labels.push_back({row.name, row.mark == CandidateRow::Mark::winner});
    }
    const double plot_left = label_column(labels);
    const double plot_right = chart_width - value_column;
    const double plot_bottom = chart_top + row_height * static_cast<double>(rows.size());
    const auto [low, high] = value_range(rows);
    const Scale scale = Scale::fitting(low, high, plot_left, plot_right, true);

    SvgWriter svg(chart_width, plot_bottom + x_axis_height, "chart candidates",
                  "candidates by median time per dispatch");
    draw_x_axis(svg, scale, chart_top, plot_bottom, format, "time per dispatch");
    const double bar_start = scale.position(scale.low());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const CandidateRow& row = rows[i];
        const double top = chart_top + row_height * static_cast<double>(i);
        const double middle = top + row_height / 2;
        const std::string mark = mark_class(row.mark);
        svg.text(label_end(plot_left), middle + 4, row_label_text(labels[i], plot_left),
                 "label " + mark, SvgWriter::Anchor::end);
        svg.rect(bar_start, top + 4, std::max(1.0, scale.position(row.median_ns) - bar_start),
                 row_height - 8, "bar " + mark,
                 row.name + ": median " + format(row.median_ns) + ", interval " +
                     format(row.ci_low_ns) + " to " + format(row.ci_high_ns) + ", " +
                     std::to_string(row.samples_ns.size()) + " samples");
        const double ci_low = scale.position(row.ci_low_ns);
        const double ci_high = scale.position(row.ci_high_ns);
        svg.path(whisker_path(ci_low, ci_high, middle), "ci");
        svg.open_group("samples");
        for (std::size_t s = 0; s < row.samples_ns.size(); ++s) {
            // Spread over five lanes so that equal samples stay apart.
            const double lane = static_cast<double>(s % 5) - 2;
            svg.circle(scale.position(row.samples_ns[s]), middle + lane * 2, 2.5);
        }
        svg.close_group();
        const std::string text = mark_text(row.mark);
        svg.text(plot_right + 10, middle + 4,
                 format(row.median_ns) + (text.empty() ? "" : "  ") + text, "value " + mark);
    }
    return svg.finish();
}

}  // namespace spvtune::html
