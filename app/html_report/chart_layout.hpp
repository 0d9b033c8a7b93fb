#pragma once

#include <string>
#include <vector>

namespace spvtune::html {

/// The sizes the row charts share, in CSS pixels.
inline constexpr double chart_width = 860;
inline constexpr double row_height = 22;
inline constexpr double chart_top = 8;
/// Room on the right of the plot for a row's value and mark.
inline constexpr double value_column = 170;
/// The charts' font size (chart_css()).
inline constexpr double font_px = 12;

/// A row's label, drawn right-aligned left of the plot; the winner's is bold, which is wider.
struct RowLabel {
    std::string text;
    bool bold = false;
};

/// The width of the label column: room for the widest label as text_width() measures it, with
/// a margin on either side, between 80 and 340 px (a longer label is cut, see row_label_text).
double label_column(const std::vector<RowLabel>& labels);

/// The text to draw for `label` in a label column `column` px wide: the label, or its start
/// with an ellipsis when it would not fit (the row's tooltips name it whole).
std::string row_label_text(const RowLabel& label, double column);

/// The x at which a label ends (it is anchored at its end): the column less the gap before the
/// plot.
double label_end(double column);

}  // namespace spvtune::html
