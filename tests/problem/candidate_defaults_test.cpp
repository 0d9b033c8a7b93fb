#include <doctest/doctest.h>

#include "problem_test_support.hpp"

namespace candidate_defaults_test {

using namespace spvtune::problem;
using namespace spvtune::problem::testing;

// "defaults" under every candidate and "variants" inside one: fields of a later layer win, and
// each fault is reported at the pointer of the layer that wrote it.

namespace {

// saxpy with its shared fields moved to "defaults".
Json saxpy_with_defaults() {
    Json json = saxpy_json();
    Json& candidate = json["candidates"][0];
    json["defaults"] = Json::object();
    for (const char* field : {"spirv", "workgroups", "push_constants", "bindings"}) {
        json["defaults"][field] = candidate[field];
        candidate.erase(field);
    }
    return json;
}

std::vector<std::string> candidate_names(const Problem& problem) {
    std::vector<std::string> names;
    for (const Candidate& candidate : problem.candidates) {
        names.push_back(candidate.name);
    }
    return names;
}

}  // namespace

TEST_CASE("defaults fill the fields a candidate leaves out") {
    const Problem problem = parse(saxpy_with_defaults());
    REQUIRE(problem.families.size() == 1);
    CHECK(problem.families[0].steps.at(0).push_constant_size == 8);
    CHECK(problem.families[0].steps.at(0).bindings.size() == 2);
    CHECK(problem.candidates.size() == 3);
}

TEST_CASE("a field of the candidate wins over the same field of the defaults") {
    Json json = saxpy_with_defaults();
    json["defaults"]["entry"] = "nowhere";
    json["candidates"][0]["entry"] = "main";
    CHECK(parse(json).families[0].steps.at(0).entry == "main");
}

TEST_CASE("a fault in a default is reported at its pointer under /defaults") {
    Json json = saxpy_with_defaults();
    json["defaults"]["workgroups"][0] = "ceil_div(nn, WG)";
    CHECK(contains(error_of(json),
                   "/defaults/workgroups/0: bad expression: unknown variable "
                   "'nn' (did you mean 'n'?)"));
}

TEST_CASE("an unknown field of the defaults gets a suggestion") {
    Json json = saxpy_with_defaults();
    json["defaults"]["bindigs"] = Json::object();
    CHECK(contains(error_of(json),
                   "/defaults/bindigs: unknown field 'bindigs' (did you mean "
                   "'bindings'?)"));
    json = saxpy_with_defaults();
    json["defaults"]["name"] = "x";
    CHECK(contains(error_of(json), "/defaults/name: unknown field 'name'"));
}

TEST_CASE("a field no layer sets is missing at the candidate") {
    Json json = saxpy_with_defaults();
    json["defaults"].erase("workgroups");
    CHECK(error_of(json) ==
          "/nonexistent/problem.json: /candidates/0: missing required field 'workgroups'");
}

TEST_CASE("variants make one family each, named after the candidate and the variant") {
    Json json = saxpy_with_defaults();
    Json& candidate = json["candidates"][0];
    candidate.erase("grid");
    candidate.erase("specialization");
    candidate["variants"] = Json::parse(R"js([
        {"name": "narrow", "specialization": {"0": 32}, "workgroups": ["ceil_div(n, 32)", 1, 1]},
        {"name": "wide", "specialization": {"0": 128}, "workgroups": ["ceil_div(n, 128)", 1, 1]}
    ])js");
    json["reference"]["candidate"] = "saxpy[wide]";
    const Problem problem = parse(json);
    CHECK(candidate_names(problem) == std::vector<std::string>{"saxpy[narrow]", "saxpy[wide]"});
    REQUIRE(problem.families.size() == 2);
    CHECK(problem.families[1].pointer == "/candidates/0/variants/1");
    CHECK(problem.families[1].steps.at(0).workgroups[0].pointer ==
          "/candidates/0/variants/1/workgroups/0");
    CHECK(problem.families[0].steps.at(0).bindings.size() == 2);
}

TEST_CASE("a variant of a candidate with a grid names its points after the variant") {
    Json json = saxpy_with_defaults();
    json["candidates"][0]["variants"] = Json::parse(R"js([{"name": "a"}, {"name": "b"}])js");
    json["candidates"][0]["grid"] = Json::parse(R"js({"WG": [32, 64]})js");
    json["reference"]["candidate"] = "saxpy[b,WG=64]";
    CHECK(candidate_names(parse(json)) ==
          std::vector<std::string>{"saxpy[a,WG=32]", "saxpy[a,WG=64]", "saxpy[b,WG=32]",
                                   "saxpy[b,WG=64]"});
}

TEST_CASE("variants are checked like candidates") {
    Json json = saxpy_with_defaults();
    json["candidates"][0]["variants"] =
        Json::parse(R"js([{"name": "a", "specializaton": {}}, {"name": "a"}, {"name": "b c"}])js");
    json["reference"]["candidate"] = "saxpy[a,WG=64]";
    const auto errors = errors_of(json);
    REQUIRE(errors.size() == 3);
    CHECK(contains(errors[0],
                   "/candidates/0/variants/0/specializaton: unknown field "
                   "'specializaton' (did you mean 'specialization'?)"));
    CHECK(contains(errors[1], "/candidates/0/variants/1/name: variant name 'a' is used twice"));
    CHECK(contains(errors[2],
                   "/candidates/0/variants/2/name: expected a variant name of "
                   "letters, digits"));
    json["candidates"][0]["variants"] = Json::array();
    CHECK(contains(error_of(json),
                   "/candidates/0/variants: expected a non-empty array of "
                   "variants"));
}

TEST_CASE("a variant may set a field the candidate leaves out") {
    Json json = saxpy_json();
    json["candidates"][0].erase("spirv");
    json["candidates"][0]["variants"] = Json::parse(R"js([{"name": "a", "spirv": "saxpy.spv"},
                                                        {"name": "b"}])js");
    json["reference"]["candidate"] = "saxpy[a,WG=64]";
    CHECK(error_of(json) ==
          "/nonexistent/problem.json: /candidates/0/variants/1: missing "
          "required field 'spirv' (or 'glsl')");
}

TEST_CASE("a SPIR-V fault of a default field is reported under /defaults") {
    Json json = saxpy_with_defaults();
    json["defaults"]["push_constants"].erase(1);
    CHECK(contains(error_of(json),
                   "/defaults/push_constants: push constants too small: 4 bytes "
                   "given"));
    json = saxpy_with_defaults();
    json["defaults"]["spirv"] = "nothing.spv";
    CHECK(contains(error_of(json), "/defaults/spirv: cannot find SPIR-V file 'nothing.spv'"));
}

}  // namespace candidate_defaults_test
