#pragma once

#include <string>
#include <vector>

namespace spvtune::html {

/// A contender's time ratio to its baseline with its interval, and the verdict on it.
struct RatioRow {
    std::string label;
    double ratio = 1;
    double low = 1;
    double high = 1;
    std::string verdict;  ///< faster, slower, equivalent, inconclusive
};

/// Per row the ratio (contender / baseline) as a dot with its interval as a whisker, both of
/// class "verdict-<verdict>", over the band of equivalence 1 +- `threshold` (a <rect class=
/// "band">) and a line at 1; the verdict is written on the right. The axis is logarithmic and
/// fitted to the ratios, their intervals and the band (Scale::fitted_log). Empty when there is
/// no row.
std::string ratio_chart_svg(const std::vector<RatioRow>& rows, double threshold);

}  // namespace spvtune::html
