// The SVG the report's charts write: one bar, whisker and dot per thing they show, sorted and
// marked as they should be, every name escaped.
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "html_report/candidate_chart.hpp"
#include "html_report/heatmap.hpp"
#include "html_report/ratio_chart.hpp"
#include "html_report/svg_writer.hpp"
#include "svg_text.hpp"

namespace chart_test {

using namespace spvtune::html;
using spvtune::test::occurrences;
using spvtune::test::texts_of_class;

namespace {

std::string plain(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

CandidateRow row(std::string name, double median, std::vector<double> samples,
                 CandidateRow::Mark mark = CandidateRow::Mark::other) {
    CandidateRow made;
    made.name = std::move(name);
    made.median_ns = median;
    made.ci_low_ns = median * 0.9;
    made.ci_high_ns = median * 1.1;
    made.samples_ns = std::move(samples);
    made.mark = mark;
    return made;
}

}  // namespace

TEST_CASE("escape_xml replaces the five characters XML and HTML give meaning to") {
    CHECK(escape_xml("a<b&c>\"d'e") == "a&lt;b&amp;c&gt;&quot;d&#39;e");
    CHECK(escape_xml("tiled[T=16]") == "tiled[T=16]");
}

TEST_CASE("coordinates are written with at most one decimal") {
    CHECK(coordinate(12.0) == "12");
    CHECK(coordinate(12.345) == "12.3");
    CHECK(coordinate(-0.04) == "0");
}

TEST_CASE("the candidate chart draws a bar, a whisker and every sample per candidate") {
    const std::string svg =
        candidate_chart_svg({row("slow", 300, {290, 300, 310, 320, 305}),
                             row("fast", 100, {95, 100, 105}, CandidateRow::Mark::winner),
                             row("middle", 200, {}, CandidateRow::Mark::tied)},
                            plain);
    CHECK(occurrences(svg, "<rect class=\"bar ") == 3);
    CHECK(occurrences(svg, "<rect class=\"bar winner\"") == 1);
    CHECK(occurrences(svg, "<rect class=\"bar tied\"") == 1);
    CHECK(occurrences(svg, "<path class=\"ci\"") == 3);
    CHECK(occurrences(svg, "<circle") == 8);
    CHECK(occurrences(svg, "<g class=\"samples\">") == 3);
    // Fastest on top, whatever order the rows came in.
    CHECK(texts_of_class(svg, "label") == std::vector<std::string>{"fast", "middle", "slow"});
    const auto values = texts_of_class(svg, "value");
    REQUIRE(values.size() == 3);
    CHECK(values[0] == "100  winner");
    CHECK(values[1] == "200  tied");
    CHECK(values[2] == "300");
    CHECK(occurrences(svg, "<svg ") == 1);
    CHECK(occurrences(svg, "</svg>") == 1);
}

TEST_CASE("a bar ends at its candidate's median on the chart's axis") {
    // Linear from 0: a median twice another's gets a bar twice as long.
    const std::string svg = candidate_chart_svg({row("a", 100, {}), row("b", 200, {})}, plain);
    auto width_of = [&](std::size_t index) {
        std::size_t at = svg.find("<rect class=\"bar");
        for (std::size_t i = 0; i < index; ++i) {
            at = svg.find("<rect class=\"bar", at + 1);
        }
        const std::size_t start = svg.find("width=\"", at) + 7;
        return std::stod(svg.substr(start, svg.find('"', start) - start));
    };
    CHECK(width_of(1) == doctest::Approx(2 * width_of(0)).epsilon(0.02));
}

TEST_CASE("the candidate chart's axis is logarithmic with decade ticks when the range is wide") {
    const std::string wide =
        candidate_chart_svg({row("fast", 1000, {1000}), row("slow", 100000, {100000})}, plain);
    CHECK(texts_of_class(wide, "tick") ==
          std::vector<std::string>{"100", "1000", "10000", "100000", "1e+06"});
    CHECK(occurrences(wide, "(log scale)") == 1);
    const std::string narrow =
        candidate_chart_svg({row("fast", 1000, {1000}), row("slow", 2000, {2000})}, plain);
    CHECK(occurrences(narrow, "(log scale)") == 0);
    CHECK(texts_of_class(narrow, "tick").front() == "0");
}

TEST_CASE("names with markup characters are escaped in labels and tooltips") {
    const std::string name = "a<b&c>\"d'e";
    const std::string svg = candidate_chart_svg({row(name, 100, {100})}, plain);
    CHECK(svg.find(name) == std::string::npos);
    CHECK(occurrences(svg, "a&lt;b&amp;c&gt;&quot;d&#39;e") == 2);  // the label and the tooltip
    CHECK(occurrences(svg, "<") == occurrences(svg, ">"));
}

TEST_CASE("the candidate chart of no candidate is empty") {
    CHECK(candidate_chart_svg({}, plain).empty());
    CHECK(ratio_chart_svg({}, 0.05).empty());
}

TEST_CASE("the heatmap draws every grid point, measured or not, and outlines the winner") {
    Heatmap heatmap{"T", "ROWS", {16, 32}, {4, 8}, {}};
    heatmap.cells.resize(4);
    heatmap.cells[0] = {HeatCell::State::measured, 100, true, "T=16,ROWS=4"};
    heatmap.cells[1] = {HeatCell::State::measured, 400, false, ""};
    heatmap.cells[2] = {HeatCell::State::failed, 0, false, "wrong output"};
    heatmap.cells[3] = {HeatCell::State::missing, 0, false, ""};
    const std::string svg = heatmap_svg(heatmap, plain, {100, 400});
    CHECK(occurrences(svg, "<rect class=\"cell ") == 4);
    CHECK(occurrences(svg, "<rect class=\"cell measured winner\"") == 1);
    CHECK(occurrences(svg, "<rect class=\"cell failed\"") == 1);
    CHECK(occurrences(svg, "<rect class=\"cell missing\"") == 1);
    // The fastest green, the slowest orange.
    CHECK(occurrences(svg, "fill=\"" + heat_colour(0) + "\"") == 1);
    CHECK(occurrences(svg, "fill=\"" + heat_colour(1) + "\"") == 1);
    CHECK(texts_of_class(svg, "cell-text") ==
          std::vector<std::string>{"100", "400", "failed", "missing"});
    // Row values down the side, column values across the top.
    const auto ticks = texts_of_class(svg, "tick");
    CHECK(ticks == std::vector<std::string>{"4", "8", "16", "32"});
    CHECK(occurrences(svg, "<title>wrong output</title>") == 1);
}

TEST_CASE("heat colours run from green through pale yellow to orange") {
    CHECK(heat_colour(0) == "#66bd63");
    CHECK(heat_colour(0.5) == "#ffffbf");
    CHECK(heat_colour(1) == "#f46d43");
    CHECK(heat_colour(7) == "#f46d43");
}

TEST_CASE("a heatmap whose cells do not fill its grid is refused") {
    Heatmap heatmap{"A", "B", {1, 2}, {3}, {}};
    heatmap.cells.resize(3);
    CHECK_THROWS_AS(heatmap_svg(heatmap, plain, {1, 2}), std::invalid_argument);
}

TEST_CASE("a key's heatmaps share one colour range, from the key's fastest candidate") {
    Heatmap fast{"A", "B", {1}, {1, 2}, {}};
    fast.cells = {{HeatCell::State::measured, 100, true, ""},
                  {HeatCell::State::measured, 150, false, ""}};
    Heatmap slow{"A", "B", {1}, {1, 2}, {}};
    slow.cells = {{HeatCell::State::measured, 300, false, ""},
                  {HeatCell::State::failed, 0, false, ""}};
    const HeatRange range = shared_heat_range({fast, slow}, 100);
    CHECK(range.fastest_ns == 100);
    CHECK(range.slowest_ns == 300);
    // The slow family's best point is no longer green: it is the slowest of the key.
    const std::string svg = heatmap_svg(slow, plain, range);
    CHECK(occurrences(svg, "fill=\"" + heat_colour(1) + "\"") == 1);
    CHECK(occurrences(svg, "fill=\"" + heat_colour(0) + "\"") == 0);
    // A winner in no grid lowers the range's start.
    CHECK(shared_heat_range({slow}, 50).fastest_ns == 50);
}

TEST_CASE("the ratio chart puts each contender's interval over the band of equivalence") {
    const std::string svg = ratio_chart_svg({{"n=1 fast", 0.5, 0.45, 0.55, "faster"},
                                             {"n=1 same", 1.01, 0.97, 1.04, "equivalent"},
                                             {"n=2 <new>", 1.3, 1.2, 1.4, "slower"}},
                                            0.05);
    CHECK(occurrences(svg, "<rect class=\"band\"") == 1);
    CHECK(occurrences(svg, "<circle class=\"ratio verdict-") == 3);
    CHECK(occurrences(svg, "<path class=\"ci verdict-faster\"") == 1);
    CHECK(occurrences(svg, "<path class=\"ci verdict-equivalent\"") == 1);
    CHECK(occurrences(svg, "<path class=\"ci verdict-slower\"") == 1);
    CHECK(occurrences(svg, "n=2 &lt;new&gt;") == 2);
    const auto values = texts_of_class(svg, "value");
    CHECK(values == std::vector<std::string>{"0.5x  faster", "1.01x  equivalent", "1.3x  slower"});
    CHECK(occurrences(svg, "within 0.95x to 1.05x") == 1);
}

TEST_CASE("the ratio chart's log axis fits the ratios, so the band of equivalence stays wide") {
    // Ratios from 0.9 to 3.5: a linear axis widened to 0..4 left the +-5% band a fortieth of it.
    const std::string svg = ratio_chart_svg(
        {{"n=1 same", 1.0, 0.9, 1.1, "equivalent"}, {"n=2 slow", 3.2, 3.0, 3.5, "slower"}}, 0.05);
    CHECK(occurrences(svg, "(log scale)") == 1);
    CHECK(texts_of_class(svg, "tick") == std::vector<std::string>{"1x", "2x", "3x"});
    const std::size_t band = svg.find("<rect class=\"band\"");
    REQUIRE(band != std::string::npos);
    const std::size_t start = svg.find("width=\"", band) + 7;
    const double band_width = std::stod(svg.substr(start, svg.find('"', start) - start));
    // Of a plot about 600 px wide: log10(1.05 / 0.95) of the log10(3.5 / 0.9) the data spans.
    CHECK(band_width > 35);
}

}  // namespace chart_test
