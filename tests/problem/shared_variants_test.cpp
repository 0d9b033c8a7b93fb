#include <doctest/doctest.h>

#include <spvtune/problem/resolve.hpp>

#include "dispatch_workgroups.hpp"
#include "problem_test_support.hpp"

namespace shared_variants_test {

using namespace spvtune::problem;
using namespace spvtune::problem::testing;

// Variants two candidates share (`"variants": "single"`), carrying `let` values each candidate
// uses in expressions of its own: a split-K matmul reuses the tile variants of the plain one.

namespace {

// saxpy as "single", one dispatch per workgroup size W that its variants `let`, and "twice",
// two steps that share those variants, the second with a workgroup count of its own.
Json sharing() {
    Json json = saxpy_json();
    Json& single = json["candidates"][0];
    single.erase("grid");
    single["specialization"] = {{"0", "W"}};
    single["workgroups"] = {"ceil_div(n, W)", 1, 1};
    single["variants"] = {{{"name", "w32"}, {"let", {{"W", 32}}}},
                          {{"name", "w128"}, {"let", {{"W", 128}}}}};
    json["reference"]["candidate"] = "single[w32]";
    single["name"] = "single";
    Json step = single;
    for (const char* field : {"name", "variants"}) {
        step.erase(field);
    }
    Json second = step;
    second["workgroups"] = {"ceil_div(n, 2 * W)", 1, 1};
    json["candidates"].push_back({{"name", "twice"},
                                  {"grid", {{"SPLIT", {1, 2}}}},
                                  {"variants", "single"},
                                  {"steps", {step, second}}});
    return json;
}

std::array<std::uint32_t, 3> workgroups(const Problem& problem, const std::string& name,
                                        std::size_t dispatch) {
    return dispatch_workgroups(problem, name, ProblemKey({{"n", 1024}}), dispatch);
}

}  // namespace

TEST_CASE("a candidate shares another's variants, each with the let values it carries") {
    const Problem problem = parse(sharing());
    CHECK(workgroups(problem, "single[w32]", 0) == std::array<std::uint32_t, 3>{32, 1, 1});
    CHECK(workgroups(problem, "single[w128]", 0) == std::array<std::uint32_t, 3>{8, 1, 1});
    // The shared variants, under the sharing candidate's name and grid; let values named nowhere.
    CHECK(workgroups(problem, "twice[w32,SPLIT=2]", 0) == std::array<std::uint32_t, 3>{32, 1, 1});
    CHECK(workgroups(problem, "twice[w32,SPLIT=2]", 1) == std::array<std::uint32_t, 3>{16, 1, 1});
    CHECK(workgroups(problem, "twice[w128,SPLIT=1]", 1) == std::array<std::uint32_t, 3>{4, 1, 1});
    CHECK(problem.candidates.size() == 6);
    // A let value is part of the point, so the cache tells candidates of other values apart.
    const Candidate* wide = problem.find_candidate("twice[w128,SPLIT=1]");
    REQUIRE(wide != nullptr);
    CHECK(wide->point ==
          std::vector<std::pair<std::string, std::int64_t>>{{"SPLIT", 1}, {"W", 128}});
}

TEST_CASE("let values may decide constraints like grid parameters") {
    Json json = sharing();
    json["candidates"][1]["constraints"] = {"W * SPLIT <= 128"};
    const Problem problem = parse(json);
    CHECK(problem.find_candidate("twice[w32,SPLIT=2]") != nullptr);
    CHECK(problem.find_candidate("twice[w128,SPLIT=1]") != nullptr);
    CHECK(problem.find_candidate("twice[w128,SPLIT=2]") == nullptr);
}

TEST_CASE("a fault in a shared variant is reported once, where the variant is written") {
    Json json = sharing();
    json["candidates"][0]["variants"][1]["let"]["W"] = "wide";
    const std::vector<std::string> errors = errors_of(json);
    REQUIRE_MESSAGE(errors.size() == 1, error_of(json));
    CHECK(contains(errors[0], "/candidates/0/variants/1/let/W: expected an integer"));
    // Its owner found it: no sharer is named.
    CHECK_FALSE(contains(errors[0], "which shares this variant"));
}

TEST_CASE("a shared variant gives values, never the module or steps that make the candidate") {
    // For its own candidate a variant may name another module; a candidate sharing it would then
    // time that kernel under its own name.
    Json json = sharing();
    json["candidates"][0]["variants"][0]["spirv"] = "saxpy.spv";
    CHECK(error_of(json) ==
          "/nonexistent/problem.json: /candidates/0/variants/0/spirv: a shared variant gives "
          "\"spirv\", which would replace the sharing candidate's own kernel; expected shared "
          "variants to give values only (let, specialization, defines, workgroups, ...), and "
          "each candidate its own module or steps (in candidate 'twice', /candidates/1, which "
          "shares this variant)");
    json = sharing();
    json["candidates"][0]["variants"][1]["steps"] = Json::array({Json::object()});
    CHECK(contains(error_of(json),
                   "/candidates/0/variants/1/steps: a shared variant gives \"steps\""));
    // Without the sharing candidate the variant is its owner's to shape.
    json["candidates"].erase(1);
    json["candidates"][0]["variants"][1].erase("steps");
    json["candidates"][0]["variants"][0]["spirv"] = "saxpy.spv";
    CHECK(errors_of(json).empty());
}

TEST_CASE("sharing names a candidate with a list of variants, and let names are new names") {
    Json json = sharing();
    json["candidates"][1]["variants"] = "singel";
    CHECK(error_of(json) ==
          "/nonexistent/problem.json: /candidates/1/variants: unknown candidate with variants "
          "to share 'singel' (did you mean 'single'?); expected one of: single");

    json = sharing();
    json["candidates"][1]["variants"] = "twice";
    CHECK(contains(error_of(json), "unknown candidate with variants to share 'twice'"));

    json = sharing();
    json["candidates"][0]["variants"][0]["let"] = {{"n", 32}};
    CHECK(contains(error_of(json),
                   "/candidates/0/variants/0/let/n: let name 'n' has the name of "
                   "a key parameter; expected a distinct name"));

    // A shared variant's let that only the sharing candidate's grid clashes with: reported
    // where the variant writes it, naming the candidate that ran into it (the owner has no
    // grid parameter of that name).
    json = sharing();
    json["candidates"][0]["variants"][0]["let"]["SPLIT"] = 2;
    CHECK(error_of(json) ==
          "/nonexistent/problem.json: /candidates/0/variants/0/let/SPLIT: let name 'SPLIT' has "
          "the name of a grid parameter; expected a distinct name (in candidate 'twice', "
          "/candidates/1, which shares this variant)");
}

}  // namespace shared_variants_test
