#include <doctest/doctest.h>

#include "problem_test_support.hpp"

namespace expansion_test {

using namespace spvtune::problem;
using namespace spvtune::problem::testing;

namespace {

std::vector<std::string> names(const Problem& problem) {
    std::vector<std::string> result;
    for (const Candidate& candidate : problem.candidates) {
        result.push_back(candidate.name);
    }
    return result;
}

}  // namespace

TEST_CASE("a grid expands in the order the file writes its axes, grid-only constraints applied") {
    Json json = saxpy_json();
    Json& family = json["candidates"][0];
    // VEC is written first, so it varies slowest, though it sorts after TILE.
    family["grid"] = Json::parse(R"({"VEC": [1, 2, 4], "TILE": [16, 32, 64]})");
    family["constraints"] = Json::array({"TILE * VEC <= 64", "n % TILE == 0"});
    family["specialization"]["0"] = "TILE";
    family["workgroups"][0] = "ceil_div(n, TILE * VEC)";
    json["reference"]["candidate"] = "saxpy[VEC=1,TILE=16]";
    const Problem problem = parse(json);
    CHECK(names(problem) == std::vector<std::string>{"saxpy[VEC=1,TILE=16]", "saxpy[VEC=1,TILE=32]",
                                                     "saxpy[VEC=1,TILE=64]", "saxpy[VEC=2,TILE=16]",
                                                     "saxpy[VEC=2,TILE=32]",
                                                     "saxpy[VEC=4,TILE=16]"});
    const auto& constraints = problem.families[0].constraints;
    REQUIRE(constraints.size() == 2);
    CHECK_FALSE(constraints[0].uses_key);
    CHECK(constraints[1].uses_key);
}

TEST_CASE("families keep the file's order and a family without grid keeps its name") {
    Json json = saxpy_json();
    Json second = json["candidates"][0];
    second["name"] = "plain";
    second.erase("grid");
    second["specialization"]["0"] = 128;
    second["workgroups"][0] = "ceil_div(n, 128)";
    json["candidates"].push_back(second);
    const Problem problem = parse(json);
    CHECK(names(problem) ==
          std::vector<std::string>{"saxpy[WG=32]", "saxpy[WG=64]", "saxpy[WG=128]", "plain"});
    CHECK(problem.candidates[3].family == 1);
}

TEST_CASE("constraints that remove every point are an error saying which removed what") {
    Json json = saxpy_json();
    json["candidates"][0]["constraints"] = Json::array({"WG > 1000"});
    CHECK(error_of(json) ==
          "/nonexistent/problem.json: /candidates/0/constraints: the "
          "constraints remove every point of the grid (3 points: 'WG > 1000' "
          "removed 3); expected at least one candidate");
}

TEST_CASE("a grid-only constraint that is not a boolean or fails is an error with its point") {
    Json json = saxpy_json();
    json["candidates"][0]["constraints"] = Json::array({"WG + 1"});
    CHECK(contains(error_of(json),
                   "/candidates/0/constraints/0: constraint fails for WG=32: "
                   "expected a bool, got int 33"));
    json["candidates"][0]["constraints"] = Json::array({"64 / (WG - 64) > 0"});
    CHECK(contains(error_of(json), "constraint fails for WG=64: division by zero"));
}

TEST_CASE("grid names must be distinct from key parameters and values distinct") {
    Json json = saxpy_json();
    json["candidates"][0]["grid"]["n"] = Json::array({1});
    CHECK(contains(errors_of(json).at(0),
                   "/candidates/0/grid/n: grid parameter 'n' has the name "
                   "of a key parameter"));
    json = saxpy_json();
    json["candidates"][0]["grid"]["WG"] = Json::array({32, 32});
    CHECK(contains(error_of(json), "/candidates/0/grid/WG/1: value 32 appears twice"));
}

}  // namespace expansion_test
