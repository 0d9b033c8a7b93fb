#pragma once

#include <algorithm>
#include <string>
#include <vector>

namespace spvtune::html {

/// The sizes the row charts share, in CSS pixels (the page's font is 12px in charts).
inline constexpr double chart_width = 860;
inline constexpr double row_height = 22;
inline constexpr double chart_top = 8;
/// Room on the right of the plot for a row's value and mark.
inline constexpr double value_column = 170;

/// The width of the label column: enough for the longest label at about 8 px per character
/// (bold, for the winner), between 80 and 340 px (a longer name is cut by the chart's edge; its
/// tooltip has it whole).
inline double label_column(const std::vector<std::string>& labels) {
    std::size_t longest = 0;
    for (const std::string& label : labels) {
        longest = std::max(longest, label.size());
    }
    return std::clamp(static_cast<double>(longest) * 8 + 14, 80.0, 340.0);
}

}  // namespace spvtune::html
