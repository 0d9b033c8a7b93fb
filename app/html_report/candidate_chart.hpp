#pragma once

#include <string>
#include <vector>

#include "scale.hpp"

namespace spvtune::html {

/// A measured candidate of one key, as its chart row shows it.
struct CandidateRow {
    enum class Mark { winner, tied, other };

    std::string name;
    double median_ns = 0;
    double ci_low_ns = 0;
    double ci_high_ns = 0;
    std::vector<double> samples_ns;
    Mark mark = Mark::other;
};

/// A horizontal chart of `rows` sorted by median, fastest on top: per candidate a bar to its
/// median (class "bar", plus "winner" or "tied"), the confidence interval of the median as a
/// whisker (class "ci") and every sample as a dot (a <circle> in the group "samples"), and on
/// the right the median and the mark. The time axis is logarithmic when the values span more
/// than Scale::wide_range. Empty when there is no row.
std::string candidate_chart_svg(std::vector<CandidateRow> rows, const ValueFormat& format);

}  // namespace spvtune::html
