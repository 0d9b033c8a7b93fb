#include <doctest/doctest.h>

#include "problem_test_support.hpp"

namespace problem_parse_test {

using namespace spvtune::problem;
using namespace spvtune::problem::testing;

TEST_CASE("a valid problem is parsed into its model") {
    const Problem problem = parse(saxpy_json());
    CHECK(problem.name == "saxpy");
    REQUIRE(problem.parameters.size() == 1);
    CHECK(problem.parameters[0].type == ParameterType::integer);
    REQUIRE(problem.parameters[0].bucket);
    CHECK(problem.parameters[0].bucket->min == 1024U);
    REQUIRE(problem.keys.size() == 2);
    CHECK(to_string(problem.keys[0].key) == "n=1000");
    CHECK(problem.keys[0].pointer == "/keys/list/0");
    REQUIRE(problem.buffers.size() == 2);
    CHECK(problem.buffers[1].name == "y");
    CHECK(problem.buffers[1].role == BufferRole::inout);
    REQUIRE(std::holds_alternative<spvtune::vulkan::FillIota>(problem.buffers[1].init));
    CHECK(std::get<spvtune::vulkan::FillIota>(problem.buffers[1].init).step == 0.5);
    REQUIRE(problem.families.size() == 1);
    REQUIRE(problem.families[0].steps.size() == 1);
    const DispatchStep& family = problem.families[0].steps[0];
    CHECK(family.entry == "main");
    CHECK(family.spirv.filename() == "saxpy.spv");
    REQUIRE(family.module);
    CHECK(family.push_constant_size == 8);
    REQUIRE(family.specialization.size() == 1);
    CHECK(family.specialization[0].id == 0);
    REQUIRE(problem.candidates.size() == 3);
    CHECK(problem.candidates[problem.reference.candidates.at(0)].name == "saxpy[WG=64]");
    REQUIRE(problem.reference.compare.size() == 1);
    CHECK(problem.reference.compare[0].rtol == doctest::Approx(1e-5));
    CHECK_FALSE(problem.reference.compare[0].exact);
}

TEST_CASE("the tuning key buckets parameters that ask for it") {
    const Problem problem = parse(saxpy_json());
    CHECK(to_string(problem.tuning_key(problem.keys[0].key)) == "n=1024");
    CHECK(to_string(problem.tuning_key(ProblemKey({{"n", std::int64_t{5000}}}))) == "n=8192");
    CHECK(to_string(problem.tuning_key(ProblemKey({{"n", std::int64_t{5000}}}),
                                       spvtune::tune::AutotuneLevel::full)) == "n=5000");
}

TEST_CASE("keys from the list and the grid are merged without duplicates") {
    Json json = saxpy_json();
    json["parameters"]["dtype"] = {{"type", "string"}};
    json["keys"] = Json::parse(R"({"list": [{"n": 64, "dtype": "f32"}],
                                   "grid": {"n": [64, 128], "dtype": ["f32", "f16"]}})");
    const Problem problem = parse(json);
    std::vector<std::string> keys;
    for (const auto& entry : problem.keys) {
        keys.push_back(to_string(entry.key));
    }
    CHECK(keys == std::vector<std::string>{"dtype=f32,n=64", "dtype=f16,n=64", "dtype=f32,n=128",
                                           "dtype=f16,n=128"});
    CHECK(problem.keys[1].pointer == "/keys/grid");
}

TEST_CASE("a float parameter accepts integers in JSON and keeps them as floats") {
    Json json = saxpy_json();
    json["parameters"]["alpha"] = {{"type", "float"}};
    json["keys"] = Json::parse(R"({"list": [{"n": 64, "alpha": 2}]})");
    const Problem problem = parse(json);
    CHECK(to_string(problem.keys[0].key) == "alpha=2.0,n=64");
}

TEST_CASE("a JSON syntax error names the line and column") {
    const auto errors = errors_of(std::string("{\n  \"name\": \"x\",\n  \"keys\": {,}\n}"));
    REQUIRE(errors.size() == 1);
    CHECK(errors[0] ==
          "/nonexistent/problem.json: JSON syntax error at line 3, column 12: "
          "syntax error while parsing object key - unexpected ','; expected string "
          "literal");
}

TEST_CASE("wrong types name the pointer, what was found and what was expected") {
    Json json = saxpy_json();
    json["buffers"]["x"]["count"] = true;
    CHECK(error_of(json) ==
          "/nonexistent/problem.json: /buffers/x/count: expected an int, got "
          "bool true\n"
          "    true\n"
          "    ^~~~ expected an int, got bool true");
    json = saxpy_json();
    json["candidates"][0]["workgroups"] = Json::array({1, 1});
    CHECK(error_of(json) ==
          "/nonexistent/problem.json: /candidates/0/workgroups: expected an "
          "array of 3 workgroup counts (x, y, z), found an array");
    json = saxpy_json();
    json["keys"]["list"][0]["n"] = 1.5;
    CHECK(error_of(json) ==
          "/nonexistent/problem.json: /keys/list/0/n: expected an integer "
          "in 0..9223372036854775807, found 1.5 (a number)");
}

TEST_CASE("unknown fields are errors with a suggestion and the list of known fields") {
    Json json = saxpy_json();
    json["candidates"][0]["bindngs"] = json["candidates"][0]["bindings"];
    json["candidates"][0].erase("bindings");
    const auto errors = errors_of(json);
    REQUIRE_FALSE(errors.empty());
    CHECK(errors[0] ==
          "/nonexistent/problem.json: /candidates/0/bindngs: unknown field "
          "'bindngs' (did you mean 'bindings'?); expected one of: name, spirv, "
          "workgroups, entry, grid, constraints, specialization, push_constants, "
          "bindings, priority, requires, glsl, defines, include_dirs, glsl_target, "
          "steps, variants, reference_only, preamble, let");
}

TEST_CASE("every structural error of a file is reported in one pass") {
    Json json = saxpy_json();
    json["buffers"]["x"]["type"] = "f33";
    json["buffers"]["y"]["role"] = "outptu";
    json["candidates"][0]["bindings"]["1"] = "yy";
    json["keys"]["list"][1] = {{"m", 3}};
    const auto errors = errors_of(json);
    REQUIRE(errors.size() == 5);
    CHECK(contains(errors[0], "/keys/list/1: missing parameter 'n'"));
    CHECK(contains(errors[1], "/keys/list/1/m: unknown parameter 'm'"));
    CHECK(contains(errors[2], "/buffers/x/type: unknown element type 'f33'"));
    CHECK(contains(errors[3],
                   "/buffers/y/role: expected \"input\", \"output\", \"inout\" or "
                   "\"scratch\", "
                   "found \"outptu\" (a string)"));
    CHECK(contains(errors[4], "/candidates/0/bindings/1: unknown buffer 'yy' (did you mean 'y'?)"));
}

TEST_CASE("expressions are checked for syntax and variables before anything runs") {
    Json json = saxpy_json();
    json["candidates"][0]["workgroups"][0] = "ceil_div(nn, WG)";
    const auto errors = errors_of(json);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0] ==
          "/nonexistent/problem.json: /candidates/0/workgroups/0: bad expression: unknown "
          "variable 'nn' (did you mean 'n'?); a workgroup count may use the key and grid "
          "parameters and let names: n, WG\n"
          "    ceil_div(nn, WG)\n"
          "             ^~ unknown variable");
    json = saxpy_json();
    json["buffers"]["x"]["count"] = "n *";
    CHECK(contains(error_of(json), "/buffers/x/count: bad expression: "));
    CHECK(contains(error_of(json), "\n    n *\n       ^"));
    // Grid parameters belong to candidates: buffer counts cannot use them.
    json = saxpy_json();
    json["buffers"]["x"]["count"] = "n * WG";
    CHECK(contains(error_of(json),
                   "unknown variable 'WG'; a buffer count may use the key "
                   "parameters: n"));
}

TEST_CASE("the reference and the comparisons must match the buffers and candidates") {
    Json json = saxpy_json();
    json["reference"]["candidate"] = "saxpy[WG=65]";
    CHECK(contains(error_of(json),
                   "/reference/candidate: unknown candidate 'saxpy[WG=65]' (did "
                   "you mean 'saxpy[WG=64]'?)"));
    json["reference"]["candidate"] = "saxpy";
    CHECK(contains(error_of(json), "candidate family 'saxpy' has 3 candidates"));
    json = saxpy_json();
    json["reference"]["compare"]["x"] = {{"exact", true}};
    CHECK(contains(error_of(json), "/reference/compare/x: buffer 'x' is an input"));
    json = saxpy_json();
    json["reference"]["compare"] = Json::object();
    CHECK(contains(error_of(json), "/reference/compare: missing a comparison for buffer 'y'"));
    json = saxpy_json();
    json["reference"]["compare"]["y"] = Json::object();
    CHECK(contains(error_of(json), "buffer 'y' holds f32; expected \"atol\" and/or \"rtol\""));
}

TEST_CASE("a family with one candidate can be the reference by its plain name") {
    Json json = saxpy_json();
    json["candidates"][0].erase("grid");
    json["candidates"][0]["specialization"]["0"] = 64;
    json["candidates"][0]["workgroups"][0] = "ceil_div(n, 64)";
    json["reference"]["candidate"] = "saxpy";
    const Problem problem = parse(json);
    REQUIRE(problem.candidates.size() == 1);
    CHECK(problem.candidates[0].name == "saxpy");
}

TEST_CASE("settings are optional and checked") {
    Json json = saxpy_json();
    json["settings"] = Json::parse(R"({"mode": "fixed", "warmup": 0, "samples": 5})");
    const Problem problem = parse(json);
    CHECK(problem.settings.mode == SamplingMode::fixed);
    CHECK(problem.settings.samples == 5U);
    CHECK_FALSE(problem.settings.min_samples);
    json["settings"]["min_samples"] = 6;
    CHECK(contains(error_of(json), "/settings/min_samples: expected min_samples <= samples"));
}

TEST_CASE("samples per submission in the settings are read, within 1 to 64") {
    Json json = saxpy_json();
    json["settings"] = Json::parse(R"({"samples_per_submission": 4})");
    CHECK(parse(json).settings.samples_per_submission == 4U);
    for (const int refused : {0, 65}) {
        CAPTURE(refused);
        json["settings"]["samples_per_submission"] = refused;
        CHECK(contains(error_of(json), "/settings/samples_per_submission: expected an integer"));
    }
}

TEST_CASE("a candidate budget and a kernel timeout in the settings are read, and 0 is refused") {
    for (const auto& [field, noun] : {std::pair{"candidate_budget_s", "candidate budget"},
                                      std::pair{"kernel_timeout_s", "kernel timeout"}}) {
        CAPTURE(field);
        Json json = saxpy_json();
        json["settings"] = Json::object({{field, 2.5}});
        const Settings settings = parse(json).settings;
        CHECK((field == std::string("candidate_budget_s") ? settings.candidate_budget_s
                                                          : settings.kernel_timeout_s) == 2.5);
        json["settings"][field] = 0;
        CHECK(contains(error_of(json), "/settings/" + std::string(field) + ": expected a " + noun +
                                           " > 0, found 0"));
    }
}

TEST_CASE("an indifference percentage in the settings is read, and 100 or more is refused") {
    Json json = saxpy_json();
    json["settings"] = Json::parse(R"({"indifference_percent": 0.5})");
    CHECK(parse(json).settings.indifference_percent == 0.5);
    json["settings"]["indifference_percent"] = 0;
    CHECK(parse(json).settings.indifference_percent == 0.0);
    json["settings"]["indifference_percent"] = 100;
    CHECK(contains(error_of(json),
                   "/settings/indifference_percent: expected a percentage below 100, found 100"));
    json["settings"]["indifference_percent"] = -1;
    CHECK(contains(error_of(json), "/settings/indifference_percent"));
}

TEST_CASE("a missing or unreadable problem file is an error naming it") {
    try {
        load_problem("/nonexistent/problem.json");
        FAIL("no error");
    } catch (const ProblemError& error) {
        CHECK(std::string(error.what()) ==
              "/nonexistent/problem.json: cannot read the problem file: no such file");
    }
}

TEST_CASE("requires lists known device capabilities, and an unknown one is an error") {
    Json json = saxpy_json();
    json["candidates"][0]["requires"] = Json::array({"subgroup_arithmetic", "int64"});
    const Problem problem = parse(json);
    CHECK(problem.families[0].required_capabilities ==
          std::vector<std::string>{"subgroup_arithmetic", "int64"});

    json["candidates"][0]["requires"] = Json::array({"subgroup_arithmetc"});
    const std::string error = error_of(json);
    CHECK(error.find("/candidates/0/requires/0: unknown capability 'subgroup_arithmetc' (did you "
                     "mean 'subgroup_arithmetic'?)") != std::string::npos);
    json["candidates"][0]["requires"] = "int64";
    CHECK(error_of(json).find("/candidates/0/requires: expected an array of capability names") !=
          std::string::npos);
}

TEST_CASE("JSON pointers in messages escape '~' and '/' in member names") {
    Json json = saxpy_json();
    json["buffers"]["x"]["a/b~c"] = 1;
    CHECK(error_of(json).find("/buffers/x/a~1b~0c: unknown field 'a/b~c'") != std::string::npos);
}

TEST_CASE("the reference may be a list of candidates, most trusted first") {
    Json json = saxpy_json();
    json["reference"]["candidate"] = Json::array({"saxpy[WG=128]", "saxpy[WG=32]"});
    const Problem problem = parse(json);
    CHECK(problem.reference.candidates == std::vector<std::size_t>{2, 0});

    json["reference"]["candidate"] = Json::array();
    CHECK(contains(error_of(json),
                   "/reference/candidate: expected a candidate name or a "
                   "non-empty list of them, found []"));
    json["reference"]["candidate"] = Json::array({"saxpy[WG=64]", "saxpy[WG=64]"});
    CHECK(contains(error_of(json),
                   "/reference/candidate/1: candidate 'saxpy[WG=64]' is listed "
                   "twice; expected each reference once"));
    json["reference"]["candidate"] = Json::array({"saxpy[WG=64]", "saxpy[WG=65]"});
    CHECK(contains(error_of(json),
                   "/reference/candidate/1: unknown candidate 'saxpy[WG=65]' "
                   "(did you mean"));
    json["reference"]["candidate"] = Json::array({"saxpy[WG=64]", 3});
    CHECK(contains(error_of(json), "/reference/candidate/1: "));
}

TEST_CASE("the schema reference is ignored but must be a string, as editors read it as a URI") {
    Json json = saxpy_json();
    json["$schema"] = "../configs/schemas/problem.schema.json";
    CHECK(errors_of(json).empty());
    json["$schema"] = 5;
    CHECK(error_of(json) ==
          "/nonexistent/problem.json: /$schema: expected a string, found 5 (an "
          "integer)");
}

}  // namespace problem_parse_test
