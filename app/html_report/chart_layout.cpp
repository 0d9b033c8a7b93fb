#include "chart_layout.hpp"

#include <algorithm>

#include "text_width.hpp"

namespace spvtune::html {
namespace {

/// Between a label and the plot; and between the label and the chart's left edge, which clips
/// anything beyond it.
constexpr double gap_before_plot = 6;
constexpr double left_margin = 4;

}  // namespace

double label_column(const std::vector<RowLabel>& labels) {
    double widest = 0;
    for (const RowLabel& label : labels) {
        widest = std::max(widest, text_width(label.text, font_px, label.bold));
    }
    return std::clamp(widest + gap_before_plot + left_margin, 80.0, 340.0);
}

std::string row_label_text(const RowLabel& label, double column) {
    return fit_text(label.text, column - gap_before_plot - left_margin, font_px, label.bold);
}

double label_end(double column) {
    return column - gap_before_plot;
}

}  // namespace spvtune::html
