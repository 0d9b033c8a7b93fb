// Row labels fit left of the plot: measured as the widest common UI font draws them, and cut
// with an ellipsis when even the widest label column cannot hold them.
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "html_report/candidate_chart.hpp"
#include "html_report/text_width.hpp"
#include "svg_text.hpp"

namespace label_test {

using namespace spvtune::html;
using spvtune::test::occurrences;
using spvtune::test::texts_of_class;

namespace {

// Widths of 12px DejaVu Sans as Chromium's canvas measureText() gives them (Linux's system-ui).
constexpr double blend_bold_px = 196.33;     // "blend[WG=256,PT=4,VEC=4]", bold
constexpr double blend_regular_px = 178.79;  // the same, regular
constexpr double w24_bold_px = 317.67;       // 24 W, bold

std::string no_unit(double value) {
    return std::to_string(value);
}

CandidateRow row(std::string name, double median, CandidateRow::Mark mark) {
    CandidateRow made;
    made.name = std::move(name);
    made.median_ns = made.ci_low_ns = made.ci_high_ns = median;
    made.mark = mark;
    return made;
}

/// The x attribute of the first <text> of class `css_class` (a label anchored at its end).
double text_x(const std::string& svg, const std::string& css_class) {
    const std::size_t at = svg.find("<text class=\"" + css_class + "\"");
    REQUIRE(at != std::string::npos);
    const std::size_t start = svg.find("x=\"", at) + 3;
    return std::stod(svg.substr(start, svg.find('"', start) - start));
}

}  // namespace

TEST_CASE("text_width measures as Chromium does with DejaVu Sans") {
    CHECK(text_width("blend[WG=256,PT=4,VEC=4]", 12, true) ==
          doctest::Approx(blend_bold_px).epsilon(0.001));
    CHECK(text_width("blend[WG=256,PT=4,VEC=4]", 12, false) ==
          doctest::Approx(blend_regular_px).epsilon(0.001));
    CHECK(text_width(std::string(24, 'W'), 12, true) ==
          doctest::Approx(w24_bold_px).epsilon(0.001));
    // A character beyond ASCII is one em, however many bytes it takes.
    CHECK(text_width("\u00e9\u4e2d", 10, false) == doctest::Approx(20));
}

TEST_CASE("the winner's bold label starts inside the chart") {
    const std::string svg =
        candidate_chart_svg({row(std::string(24, 'W'), 100, CandidateRow::Mark::winner),
                             row("plain", 200, CandidateRow::Mark::other)},
                            no_unit);
    // The label ends at x and is drawn leftwards: its start must not pass the chart's left edge.
    CHECK(text_x(svg, "label winner") - w24_bold_px >= 0);
    CHECK(texts_of_class(svg, "label winner") == std::vector<std::string>{std::string(24, 'W')});
}

TEST_CASE("a label wider than the widest label column is cut with an ellipsis") {
    const std::string name = "matmul[TILE_M=64,TILE_N=64,TILE_K=16,VEC=4,UNROLL=8,SPLIT=2]";
    const std::string svg =
        candidate_chart_svg({row(name, 100, CandidateRow::Mark::winner)}, no_unit);
    const auto labels = texts_of_class(svg, "label winner");
    REQUIRE(labels.size() == 1);
    CHECK(labels[0].ends_with("\u2026"));
    CHECK(name.starts_with(labels[0].substr(0, labels[0].size() - 3)));
    CHECK(text_x(svg, "label winner") - text_width(labels[0], 12, true) >= 0);
    CHECK(occurrences(svg, name) == 1);  // the bar's tooltip has it whole
}

TEST_CASE("fit_text keeps what fits and never cuts a UTF-8 character") {
    CHECK(fit_text("short", 100, 12, false) == "short");
    // Each of these is one em (10 px): 35 px hold two and the ellipsis (10 px).
    CHECK(fit_text("\u00e9\u00e9\u00e9\u00e9\u00e9", 35, 10, false) == "\u00e9\u00e9\u2026");
}

}  // namespace label_test
