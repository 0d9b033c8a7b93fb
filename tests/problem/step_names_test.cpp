#include <doctest/doctest.h>

#include <spvtune/problem/resolve.hpp>

#include "dispatch_workgroups.hpp"
#include "problem_test_support.hpp"

namespace step_names_test {

using namespace spvtune::problem;
using namespace spvtune::problem::testing;

// Steps with names, and variants that change a named step's fields ("steps" as an object)
// instead of repeating every step: a split-K matmul's tile variants reach its split step while
// one variant widens only its reduce step.

namespace {

// saxpy, plus "twice": saxpy as two named steps, "first" and "second", with two variants: one
// that changes only the second step's workgroups, one that changes nothing of the steps.
Json named_steps() {
    Json json = saxpy_json();
    Json step = json["candidates"][0];
    for (const char* field : {"name", "grid"}) {
        step.erase(field);
    }
    step["specialization"] = {{"0", 64}};
    step["workgroups"] = {"ceil_div(n, 64)", 1, 1};
    Json first = step;
    first["name"] = "first";
    Json second = step;
    second["name"] = "second";
    json["candidates"].push_back(
        {{"name", "twice"},
         {"steps", {first, second}},
         {"variants",
          {{{"name", "wide"}, {"steps", {{"second", {{"workgroups", {"ceil_div(n, 32)", 1, 1}}}}}}},
           {{"name", "plain"}}}}});
    return json;
}

Json& wide_steps(Json& json) {
    return json["candidates"][1]["variants"][0]["steps"];
}

std::array<std::uint32_t, 3> workgroups(const Problem& problem, const std::string& name,
                                        std::size_t dispatch) {
    return dispatch_workgroups(problem, name, ProblemKey({{"n", 1000}}), dispatch);
}

}  // namespace

TEST_CASE("a variant changes a named step's fields and keeps the others' and the rest") {
    const Problem problem = parse(named_steps());
    CHECK(workgroups(problem, "twice[wide]", 0) == std::array<std::uint32_t, 3>{16, 1, 1});
    CHECK(workgroups(problem, "twice[wide]", 1) == std::array<std::uint32_t, 3>{32, 1, 1});
    CHECK(workgroups(problem, "twice[plain]", 1) == std::array<std::uint32_t, 3>{16, 1, 1});
}

TEST_CASE("a fault in a field a variant changed by step name is reported where it wrote it") {
    Json json = named_steps();
    wide_steps(json)["second"]["workgroups"] = {"ceil_div(n, 32)", "m", 1};
    CHECK(contains(error_of(json), "/candidates/1/variants/0/steps/second/workgroups/1: "));
    json = named_steps();
    wide_steps(json)["second"]["workgroup"] = {1, 1, 1};
    CHECK(contains(error_of(json), "/candidates/1/variants/0/steps/second/workgroup: unknown "));
}

TEST_CASE("a step name that no step has, twice the same name, or no steps to change are errors") {
    Json json = named_steps();
    wide_steps(json) = {{"third", {{"repeat", 2}}}};
    CHECK(error_of(json) ==
          "/nonexistent/problem.json: /candidates/1/variants/0/steps/third: no "
          "step is named 'third'; the named steps are: first, second");

    json = named_steps();
    wide_steps(json) = Json::object();
    CHECK(contains(error_of(json),
                   "/candidates/1/variants/0/steps: expected at least one step "
                   "name with the fields to change, found {}"));

    json = named_steps();
    json["candidates"][1]["steps"][1]["name"] = "first";
    CHECK(contains(error_of(json),
                   "/candidates/1/steps/1/name: step name 'first' is used twice "
                   "in this candidate; expected unique names"));

    json = named_steps();
    json["candidates"][0]["steps"] = {{"second", {{"repeat", 2}}}};
    CHECK(contains(error_of(json),
                   "/candidates/0/steps: steps given by name change the named steps of the "
                   "candidate or the defaults, and neither gives \"steps\" as an array"));
}

}  // namespace step_names_test
