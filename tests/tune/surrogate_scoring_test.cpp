// The Bayesian search scores a pool of up to 2,000 points at every proposal. It skips the exact
// score of points whose upper bound cannot win and keeps covariances between proposals; neither
// may change which point it proposes.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "search_cross_covariances.hpp"
#include "search_surrogate.hpp"

namespace surrogate_scoring_test {

using namespace spvtune::tune::detail;

namespace {

/// A random point of `axes` parameters of 5 levels each, scaled to [0, 1], in one of 2 families.
SurrogateInput random_point(std::mt19937_64& random, std::size_t axes) {
    std::uniform_int_distribution<int> level(0, 4);
    SurrogateInput input{static_cast<std::size_t>(level(random) % 2), {}};
    for (std::size_t axis = 0; axis < axes; ++axis) {
        input.levels.push_back(level(random) / 4.0);
    }
    return input;
}

/// A log-time that each parameter moves on its own, plus a little of their product.
double log_time(const SurrogateInput& input) {
    double sum = 0.3 * static_cast<double>(input.family);
    double product = 1.0;
    for (std::size_t axis = 0; axis < input.levels.size(); ++axis) {
        const double level = input.levels[axis];
        sum += (axis % 2 == 0 ? 1.0 : -0.5) * (level - 0.4) * (level - 0.4);
        product *= 0.5 + level;
    }
    return sum + 0.2 * product;
}

/// What scoring every point exactly chooses: the first of the largest expected improvements.
std::pair<std::size_t, double> every_point_scored(const LogTimeSurrogate& surrogate,
                                                  const std::vector<SurrogateInput>& pool,
                                                  double best) {
    std::pair<std::size_t, double> chosen{0, -1.0};
    for (std::size_t j = 0; j < pool.size(); ++j) {
        const double gain = surrogate.expected_improvement(pool[j], best);
        if (gain > chosen.second) {
            chosen = {j, gain};
        }
    }
    return chosen;
}

/// 4 or 6 parameters: inputs of two sizes, as the families of one problem may have.
std::size_t input_axes(std::size_t i) {
    return i % 3 == 0 ? 4 : 6;
}

}  // namespace

TEST_CASE("the bounded scoring proposes exactly the point that scoring every point would") {
    for (const SurrogateTerms terms :
         {SurrogateTerms::joint, SurrogateTerms::joint_and_one_parameter}) {
        for (std::uint64_t seed = 1; seed <= 12; ++seed) {
            CAPTURE(seed);
            std::mt19937_64 random(seed);
            const std::size_t axes = 2 + seed % 6;
            std::vector<SurrogateInput> fitted;
            std::vector<double> log_ns;
            for (std::size_t i = 0; i < 10 + 5 * seed; ++i) {
                fitted.push_back(random_point(random, axes));
                log_ns.push_back(log_time(fitted.back()));
            }
            const double best = *std::min_element(log_ns.begin(), log_ns.end());
            const LogTimeSurrogate surrogate(fitted, log_ns, terms);
            std::vector<SurrogateInput> pool;
            std::vector<std::vector<double>> cross;
            for (std::size_t j = 0; j < 400; ++j) {
                pool.push_back(random_point(random, axes));
                cross.push_back(surrogate.cross_covariances(pool.back()));
            }
            // The pool again, so that equal scores must go to the first.
            pool.insert(pool.end(), pool.begin(), pool.begin() + 50);
            cross.insert(cross.end(), cross.begin(), cross.begin() + 50);

            const auto expected = every_point_scored(surrogate, pool, best);
            const auto found = surrogate.most_expected_improvement(cross, best);
            CHECK(found.first == expected.first);
            CHECK(found.second == expected.second);
            CHECK(found.second > 0.0);
        }
    }
}

TEST_CASE("kept covariances are the surrogate's own, however the fitted points change") {
    std::mt19937_64 random(7);
    const std::size_t axes = 5;
    std::vector<SurrogateInput> points;
    for (std::size_t p = 0; p < 60; ++p) {
        points.push_back(random_point(random, axes));
    }
    const LogTimeSurrogate::Settings settings{{0.3, 0.6, 0.3, 1.2, 0.15}, 0.02, 0.5};
    CrossCovariances kept;
    // Fitted sets that grow, lose points and change order, as a search's fits do.
    const std::vector<std::vector<std::size_t>> fitted_sets{
        {0, 1, 2, 3, 4, 5, 6, 7}, {0, 1, 2, 8, 3, 4, 5, 6, 7}, {9, 1, 2, 8, 3, 5, 6, 7, 10}};
    for (const std::vector<std::size_t>& fitted : fitted_sets) {
        std::vector<SurrogateInput> inputs;
        std::vector<double> log_ns;
        for (const std::size_t p : fitted) {
            inputs.push_back(points[p]);
            log_ns.push_back(log_time(points[p]));
        }
        const LogTimeSurrogate surrogate(inputs, log_ns, settings);
        std::vector<std::size_t> scored;
        for (std::size_t p = 20; p < 60; p += 3) {
            scored.push_back(p);
        }
        const auto rows = kept.rows(scored, points, fitted, surrogate);
        REQUIRE(rows.size() == scored.size());
        for (std::size_t j = 0; j < scored.size(); ++j) {
            CAPTURE(scored[j]);
            CHECK(rows[j] == surrogate.cross_covariances(points[scored[j]]));
        }
    }
}

TEST_CASE("a fit that keeps its pair terms predicts exactly as one built from its settings") {
    // The search of settings keeps each pair's per-parameter terms between trials; a surrogate
    // given those settings computes every covariance directly. Families of 4 and 6 parameters,
    // and enough points (60) that every parameter's length is searched.
    for (const SurrogateTerms terms :
         {SurrogateTerms::joint, SurrogateTerms::joint_and_one_parameter}) {
        std::mt19937_64 random(11);
        std::vector<SurrogateInput> fitted;
        std::vector<double> log_ns;
        for (std::size_t i = 0; i < 60; ++i) {
            SurrogateInput input = random_point(random, input_axes(i));
            fitted.push_back(input);
            log_ns.push_back(log_time(input));
        }
        const LogTimeSurrogate searched(fitted, log_ns, terms);
        const LogTimeSurrogate rebuilt(fitted, log_ns, searched.settings());
        for (std::size_t j = 0; j < 200; ++j) {
            CAPTURE(j);
            const SurrogateInput point = random_point(random, input_axes(j));
            const SurrogatePrediction a = searched.predict(point);
            const SurrogatePrediction b = rebuilt.predict(point);
            CHECK(a.mean == b.mean);
            CHECK(a.deviation == b.deviation);
        }
    }
}

}  // namespace surrogate_scoring_test
