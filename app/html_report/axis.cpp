#include "axis.hpp"

namespace spvtune::html {

void draw_x_axis(SvgWriter& svg, const Scale& scale, double top, double bottom,
                 const ValueFormat& format, std::string_view title) {
    svg.open_group("axis");
    const std::vector<double> ticks = scale.ticks();
    for (const double tick : ticks) {
        const double x = scale.position(tick);
        svg.line(x, top, x, bottom, "grid");
        svg.text(x, bottom + 13, format(tick), "tick", SvgWriter::Anchor::middle);
    }
    const double from = scale.position(scale.low());
    const double to = scale.position(scale.high());
    svg.line(from, bottom, to, bottom, "baseline");
    std::string full_title(title);
    if (scale.kind() == Scale::Kind::log) {
        full_title += " (log scale)";
    }
    svg.text((from + to) / 2, bottom + 29, full_title, "axis-title", SvgWriter::Anchor::middle);
    svg.close_group();
}

std::string whisker_path(double from, double to, double middle) {
    constexpr double cap = 5;
    return "M" + coordinate(from) + " " + coordinate(middle) + "H" + coordinate(to) + "M" +
           coordinate(from) + " " + coordinate(middle - cap) + "V" + coordinate(middle + cap) +
           "M" + coordinate(to) + " " + coordinate(middle - cap) + "V" + coordinate(middle + cap);
}

}  // namespace spvtune::html
