// The axes of the report's charts: where values land, which ticks they get, when an axis is
// logarithmic.
#include "html_report/scale.hpp"

#include <cmath>
#include <vector>

#include <doctest/doctest.h>

namespace scale_test {

using spvtune::html::Scale;

TEST_CASE("a linear scale maps its domain onto the pixel range and ticks in 1-2-5 steps") {
    const Scale scale = Scale::linear(0, 10, 100, 200);
    CHECK(scale.kind() == Scale::Kind::linear);
    CHECK(scale.position(0) == doctest::Approx(100));
    CHECK(scale.position(5) == doctest::Approx(150));
    CHECK(scale.position(10) == doctest::Approx(200));
    CHECK(scale.position(-3) == doctest::Approx(100));  // clamped to the axis
    CHECK(scale.position(25) == doctest::Approx(200));
    CHECK(scale.ticks() == std::vector<double>{0, 2, 4, 6, 8, 10});
}

TEST_CASE("a linear scale widens its domain to round ticks") {
    const Scale scale = Scale::linear(1.3e6, 3.7e6, 0, 100);
    CHECK(scale.low() == doctest::Approx(1e6));
    CHECK(scale.high() == doctest::Approx(4e6));
    const std::vector<double> ticks = scale.ticks();
    REQUIRE(ticks.size() == 7);
    CHECK(ticks.front() == doctest::Approx(1e6));
    CHECK(ticks[1] == doctest::Approx(1.5e6));
    CHECK(ticks.back() == doctest::Approx(4e6));
}

TEST_CASE("a log scale spans whole decades and puts each one at an equal distance") {
    const Scale scale = Scale::log(3, 2000, 0, 400);
    CHECK(scale.kind() == Scale::Kind::log);
    CHECK(scale.low() == doctest::Approx(1));
    CHECK(scale.high() == doctest::Approx(10000));
    CHECK(scale.position(1) == doctest::Approx(0));
    CHECK(scale.position(10) == doctest::Approx(100));
    CHECK(scale.position(100) == doctest::Approx(200));
    CHECK(scale.position(1000) == doctest::Approx(300));
    CHECK(scale.position(0) == doctest::Approx(0));  // nothing is left of the axis
    const std::vector<double> ticks = scale.ticks();
    REQUIRE(ticks.size() == 5);
    for (std::size_t i = 0; i < ticks.size(); ++i) {
        CHECK(ticks[i] == doctest::Approx(std::pow(10.0, static_cast<double>(i))));
    }
}

TEST_CASE("a log scale of fewer than three decades adds 2x and 5x ticks") {
    const Scale scale = Scale::log(20, 400, 0, 100);
    const std::vector<double> expected{10, 20, 50, 100, 200, 500, 1000};
    const std::vector<double> ticks = scale.ticks();
    REQUIRE(ticks.size() == expected.size());
    for (std::size_t i = 0; i < ticks.size(); ++i) {
        CHECK(ticks[i] == doctest::Approx(expected[i]));
    }
}

TEST_CASE("the fitting scale is logarithmic only when the values span more than ten times") {
    CHECK(Scale::fitting(100, 1000, 0, 1, true).kind() == Scale::Kind::linear);
    CHECK(Scale::fitting(100, 1001, 0, 1, true).kind() == Scale::Kind::log);
    // Bars start at zero on a linear axis; a ratio axis does not.
    CHECK(Scale::fitting(100, 900, 0, 1, true).low() == 0);
    CHECK(Scale::fitting(0.8, 1.2, 0, 1, false).low() == doctest::Approx(0.8));
    // Zero or negative values never make a log axis.
    CHECK(Scale::fitting(0, 1e6, 0, 1, true).kind() == Scale::Kind::linear);
}

TEST_CASE("a scale of one value still places it inside the axis") {
    const Scale scale = Scale::linear(5, 5, 0, 100);
    CHECK(scale.low() < 5);
    CHECK(scale.high() > 5);
    CHECK(scale.position(5) > 0);
    CHECK(scale.position(5) < 100);
}

TEST_CASE("a fitted log scale keeps close to its values, with 1-2-5 ticks inside it") {
    const Scale scale = Scale::fitted_log(0.9, 3.5, 0, 100);
    CHECK(scale.kind() == Scale::Kind::log);
    // A margin of a twentieth of the span (3.5 / 0.9) at either end.
    const double margin = std::pow(3.5 / 0.9, 0.05);
    CHECK(scale.low() == doctest::Approx(0.9 / margin));
    CHECK(scale.high() == doctest::Approx(3.5 * margin));
    CHECK(scale.position(std::sqrt(scale.low() * scale.high())) == doctest::Approx(50));
    // Under a decade: steps of 1 from the first inside, as a linear axis would put them.
    CHECK(scale.ticks() == std::vector<double>{1, 2, 3});
    const std::vector<double> narrow = Scale::fitted_log(0.95, 1.05, 0, 100).ticks();
    REQUIRE(narrow.size() == 3);
    CHECK(narrow[0] == doctest::Approx(0.95));
    CHECK(narrow[1] == doctest::Approx(1));
    CHECK(narrow[2] == doctest::Approx(1.05));
    // Over decades: the powers of ten, and the 2x and 5x between them, inside the domain.
    const std::vector<double> expected{0.5, 1, 2, 5, 10, 20, 50};
    const std::vector<double> wide = Scale::fitted_log(0.3, 40, 0, 100).ticks();
    REQUIRE(wide.size() == expected.size());
    for (std::size_t i = 0; i < wide.size(); ++i) {
        CHECK(wide[i] == doctest::Approx(expected[i]));
    }
}

}  // namespace scale_test
