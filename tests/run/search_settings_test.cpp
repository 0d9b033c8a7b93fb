#include <doctest/doctest.h>

#include <spvtune/run/problem_runner.hpp>
#include <spvtune/run/problem_tuning.hpp>

#include "problem/problem_test_support.hpp"

// settings.search, search_budget_s, max_candidates, seed and patience: read, refused with the
// field's pointer and what was expected, and merged under the command line's overrides; and the
// grid positions a search moves between.

namespace search_settings_test {

using namespace spvtune::problem;
using namespace spvtune::run;
using namespace spvtune::problem::testing;
using spvtune::tune::SearchStrategy;

TEST_CASE("the search settings are read") {
    Json json = saxpy_json();
    json["settings"] = Json::parse(
        R"({"search": "halving", "search_budget_s": 2.5, "max_candidates": 40, "seed": 9,
            "patience": 7})");
    const Settings settings = parse(json).settings;
    CHECK(settings.search == SearchStrategy::halving);
    CHECK(settings.search_budget_s == 2.5);
    CHECK(settings.max_candidates == 40U);
    CHECK(settings.seed == 9U);
    CHECK(settings.patience == 7U);
    for (const char* name : {"exhaustive", "random", "local", "genetic", "bayes"}) {
        json["settings"] = Json::object({{"search", name}});
        CHECK(Json(*parse(json).settings.search) == name);
    }
}

TEST_CASE("an unknown strategy is refused with its pointer and the choices") {
    Json json = saxpy_json();
    json["settings"] = Json::parse(R"({"search": "annealing"})");
    CHECK(contains(error_of(json),
                   "/settings/search: expected \"exhaustive\", \"random\", "
                   "\"halving\", \"local\", \"genetic\" or \"bayes\", found \"annealing\""));
    json["settings"] = Json::parse(R"({"search": 3})");
    CHECK(contains(error_of(json), "/settings/search"));
}

TEST_CASE("a misspelt search field is refused with a suggestion") {
    Json json = saxpy_json();
    json["settings"] = Json::parse(R"({"serch": "local"})");
    const std::string error = error_of(json);
    CHECK(contains(error, "/settings"));
    CHECK(contains(error, "search"));
}

TEST_CASE("bad search budgets, limits and seeds are refused") {
    Json json = saxpy_json();
    json["settings"] = Json::parse(R"({"search_budget_s": 0})");
    CHECK(contains(error_of(json),
                   "/settings/search_budget_s: expected a search budget > 0, found 0"));
    json["settings"] = Json::parse(R"({"search_budget_s": -1})");
    CHECK(contains(error_of(json), "/settings/search_budget_s"));
    json["settings"] = Json::parse(R"({"max_candidates": 0})");
    CHECK(contains(error_of(json), "/settings/max_candidates"));
    json["settings"] = Json::parse(R"({"max_candidates": 2.5})");
    CHECK(contains(error_of(json), "/settings/max_candidates"));
    json["settings"] = Json::parse(R"({"seed": -1})");
    CHECK(contains(error_of(json), "/settings/seed"));
    json["settings"] = Json::parse(R"({"seed": "zero"})");
    CHECK(contains(error_of(json), "/settings/seed"));
    json["settings"] = Json::parse(R"({"patience": 0})");
    CHECK(contains(error_of(json), "/settings/patience: expected an integer in 1..1000, found 0"));
    json["settings"] = Json::parse(R"({"patience": 1001})");
    CHECK(contains(error_of(json), "/settings/patience"));
}

TEST_CASE("the command line's search settings override the file's, field by field") {
    Settings file;
    file.search = SearchStrategy::random;
    file.search_budget_s = 3;
    file.seed = 5;
    file.patience = 6;
    Settings overrides;
    overrides.search = SearchStrategy::local;
    overrides.max_candidates = 12;
    const spvtune::tune::SearchSettings merged = search_settings(file, overrides);
    CHECK(merged.strategy == SearchStrategy::local);
    CHECK(merged.budget == std::chrono::milliseconds(3000));
    CHECK(merged.max_candidates == 12U);
    CHECK(merged.seed == 5U);
    CHECK(merged.patience == 6U);
    overrides.patience = 2;
    CHECK(search_settings(file, overrides).patience == 2U);
    const spvtune::tune::SearchSettings defaults = search_settings({}, {});
    CHECK_FALSE(defaults.strategy.has_value());
    CHECK_FALSE(defaults.budget.has_value());
    CHECK(defaults.seed == 0U);
    CHECK_FALSE(defaults.patience.has_value());
}

TEST_CASE("a grid candidate's position is its values' ranks, whatever order the file lists") {
    // The searches step to neighbouring levels and model time over them: listed as
    // [256, 32, 128], 128 must still be the neighbour of 256 and of 32.
    for (const char* grid : {R"({"WG": [32, 64, 128]})", R"({"WG": [128, 32, 64]})"}) {
        CAPTURE(grid);
        Json json = saxpy_json();
        json["candidates"][0]["grid"] = Json::parse(grid);
        const Problem problem = parse(json);
        REQUIRE(problem.candidates.size() == 3);
        for (std::size_t i = 0; i < 3; ++i) {
            const auto position = grid_position(problem, i);
            REQUIRE(position.has_value());
            CHECK(position->family == 0U);
            const std::int64_t value = problem.candidates[i].point.at(0).second;
            const std::size_t rank = value == 32 ? 0 : value == 64 ? 1 : 2;
            CHECK(position->levels == std::vector<std::size_t>{rank});
        }
    }
}

TEST_CASE("a candidate without a grid has no position") {
    Json json = saxpy_json();
    json["candidates"][0].erase("grid");
    json["candidates"][0]["specialization"] = Json::parse(R"({"0": 64})");
    json["candidates"][0]["workgroups"] = Json::parse(R"j(["ceil_div(n, 64)", 1, 1])j");
    json["reference"]["candidate"] = "saxpy";
    const Problem problem = parse(json);
    REQUIRE(problem.candidates.size() == 1);
    CHECK_FALSE(grid_position(problem, 0).has_value());
}

}  // namespace search_settings_test
