#include <cstring>

#include <doctest/doctest.h>

#include <spvtune/problem/candidate_identity.hpp>
#include <spvtune/problem/resolve.hpp>

#include "problem_test_support.hpp"

namespace candidate_steps_test {

using namespace spvtune::problem;
using namespace spvtune::problem::testing;

// A candidate of several dispatches ("steps"), a step repeated with an iteration variable, and
// "scratch" buffers: parsed, validated with pointers, and resolved into dispatches per key.

namespace {

// saxpy, plus a candidate "twice" that runs saxpy as two steps: the second reads a scratch
// buffer instead of x.
Json saxpy_with_steps() {
    Json json = saxpy_json();
    json["buffers"]["t"] = Json::parse(R"({"type": "f32", "count": "n", "role": "scratch"})");
    Json step = json["candidates"][0];
    for (const char* field : {"name", "grid"}) {
        step.erase(field);
    }
    Json second = step;
    second["bindings"]["0"] = "t";
    json["candidates"].push_back(
        {{"name", "twice"}, {"grid", {{"WG", {32, 64}}}}, {"steps", {step, second}}});
    return json;
}

Json& steps_of(Json& json) {
    return json["candidates"][1]["steps"];
}

/// The diagnostics of saxpy_with_steps() with `field` of its second step set to `value`.
std::string second_step_error(const char* field, const Json& value) {
    Json json = saxpy_with_steps();
    steps_of(json)[1][field] = value;
    return error_of(json);
}

ProblemKey n_key(std::int64_t n) {
    return ProblemKey({{"n", n}});
}

/// Candidate `name` resolved for the key n.
spvtune::tune::Result<ResolvedCandidate> resolve(const Problem& problem, const std::string& name,
                                                 std::int64_t n) {
    const auto buffers = resolve_buffers(problem, n_key(n)).value();
    const Candidate* candidate = problem.find_candidate(name);
    REQUIRE(candidate != nullptr);
    return resolve_candidate(problem, n_key(n),
                             static_cast<std::size_t>(candidate - problem.candidates.data()),
                             buffers);
}

ResolvedCandidate resolved(const Problem& problem, const std::string& name, std::int64_t n) {
    auto result = resolve(problem, name, n);
    REQUIRE_MESSAGE(result, (result ? "" : result.error()));
    return std::move(result).value();
}

std::uint32_t push_u32(const ResolvedDispatch& dispatch, std::size_t offset) {
    std::uint32_t value = 0;
    std::memcpy(&value, dispatch.push_constants.data() + offset, 4);
    return value;
}

std::string skip_reason(const Problem& problem, const std::string& name, std::int64_t n) {
    auto result = resolve(problem, name, n);
    REQUIRE_FALSE(result);
    return result.error();
}

}  // namespace

TEST_CASE("a candidate of steps is one family with a step per dispatch, in order") {
    const Problem problem = parse(saxpy_with_steps());
    REQUIRE(problem.families.size() == 2);
    CHECK(problem.families[0].steps.size() == 1);
    const CandidateFamily& twice = problem.families[1];
    REQUIRE(twice.steps.size() == 2);
    CHECK(twice.steps[0].pointer == "/candidates/1/steps/0");
    CHECK(twice.steps[1].bindings.at(0).buffer == 2);  // t
    CHECK(problem.find_candidate("twice[WG=32]") != nullptr);

    const ResolvedCandidate candidate = resolved(problem, "twice[WG=64]", 1000);
    REQUIRE(candidate.dispatches.size() == 2);
    CHECK(candidate.dispatches[0].step == 0);
    CHECK(candidate.dispatches[1].step == 1);
    CHECK(candidate.dispatches[1].bindings.at(0).buffer == 2);
    CHECK(candidate.dispatches[1].workgroup_counts[0] == 16);
}

TEST_CASE("a scratch buffer is not checked, and a comparison of one is an error") {
    Json json = saxpy_with_steps();
    const Problem problem = parse(json);
    CHECK(problem.buffers[2].role == BufferRole::scratch);
    CHECK_FALSE(is_checked(BufferRole::scratch));
    CHECK(problem.reference.compare.size() == 1);  // y only

    json["reference"]["compare"]["t"] = {{"exact", true}};
    CHECK(error_of(json) ==
          "/nonexistent/problem.json: /reference/compare/t: buffer 't' is scratch, a "
          "candidate's own working memory, which is never compared; expected a comparison only "
          "for output and inout buffers (y)");
}

TEST_CASE("a repeated step dispatches once per iteration, with its iteration variable set") {
    Json json = saxpy_with_steps();
    Json& second = steps_of(json)[1];
    second["repeat"] = "log2(n) - 7";
    second["iteration"] = "pass";
    // Of the iteration alone: it cannot be checked when the file is loaded, only per key.
    second["push_constants"][0]["value"] = "2.0 + pass";
    second["push_constants"][1]["value"] = "n - pass";
    second["workgroups"][0] = "ceil_div(n, WG) + pass";
    const Problem problem = parse(json);
    // log2(1000) - 7 = 2: the first step, then the second twice.
    const ResolvedCandidate candidate = resolved(problem, "twice[WG=64]", 1000);
    REQUIRE(candidate.dispatches.size() == 3);
    CHECK(candidate.dispatches[1].step == 1);
    CHECK(candidate.dispatches[2].step == 1);
    CHECK(push_u32(candidate.dispatches[1], 4) == 1000);
    CHECK(push_u32(candidate.dispatches[2], 4) == 999);
    float alpha = 0;
    std::memcpy(&alpha, candidate.dispatches[2].push_constants.data(), 4);
    CHECK(alpha == 3.0f);
    CHECK(candidate.dispatches[1].workgroup_counts[0] == 16);
    CHECK(candidate.dispatches[2].workgroup_counts[0] == 17);
    // log2(128) - 7 = 0: the step is not dispatched at all.
    CHECK(resolved(problem, "twice[WG=64]", 128).dispatches.size() == 1);
    // log2(64) - 7 < 0: skipped for that key, with the step's pointer.
    CHECK(skip_reason(problem, "twice[WG=64]", 64) ==
          "/candidates/1/steps/1/repeat: repeat count is -1 for this key; expected 0..4096");
}

TEST_CASE("a specialization of the iteration variable gives each repetition its own pipeline") {
    Json json = saxpy_with_steps();
    Json& second = steps_of(json)[1];
    second["repeat"] = 3;
    second["iteration"] = "pass";
    // The workgroup size (local_size_x_id 0) doubles each pass, as a tree reduction's fan-in may.
    second["specialization"]["0"] = "WG * pow2(pass)";
    second["workgroups"][0] = "ceil_div(n, WG * pow2(pass))";
    const Problem problem = parse(json);
    const ResolvedCandidate candidate = resolved(problem, "twice[WG=32]", 1000);
    REQUIRE(candidate.dispatches.size() == 4);
    for (std::uint32_t pass = 0; pass < 3; ++pass) {
        const ResolvedDispatch& dispatch = candidate.dispatches[1 + pass];
        CAPTURE(pass);
        REQUIRE(dispatch.specializations.size() == 1);
        CHECK(std::get<std::uint32_t>(dispatch.specializations[0].value) == 32U << pass);
        CHECK(dispatch.workgroup_size[0] == 32U << pass);
        CHECK(dispatch.workgroup_counts[0] == (1000 + (32U << pass) - 1) / (32U << pass));
    }
    // A value that fails names the iteration.
    second["specialization"]["0"] = "WG * pow2(pass) / (2 - pass)";
    CHECK(contains(skip_reason(parse(json), "twice[WG=32]", 1000),
                   "/candidates/1/steps/1/specialization/0: 'WG * pow2(pass) / (2 - pass)': "
                   "column "));
}

TEST_CASE("every step repeating 0 times skips the candidate for that key") {
    Json json = saxpy_with_steps();
    steps_of(json)[0]["repeat"] = "n / 2000";
    steps_of(json)[1]["repeat"] = "n / 2000";
    const Problem problem = parse(json);
    CHECK(resolved(problem, "twice[WG=64]", 4096).dispatches.size() == 4);
    CHECK(skip_reason(problem, "twice[WG=64]", 1000) ==
          "every step repeats 0 times for this key; expected at least one dispatch");
}

TEST_CASE("a repeat count of grid parameters only is checked when the file is loaded") {
    CHECK(contains(second_step_error("repeat", "32 - WG"),
                   "/candidates/1/steps/1/repeat: repeat count of twice[WG=64]: "
                   "expected a repeat count >= 0, got -32"));
}

TEST_CASE("a bad repeat expression is reported at its pointer") {
    CHECK(contains(second_step_error("repeat", "log2(nn)"),
                   "/candidates/1/steps/1/repeat: bad expression: unknown "
                   "variable 'nn' (did you mean 'n'?)"));
}

TEST_CASE("the iteration variable is known only in its own step") {
    Json json = saxpy_with_steps();
    steps_of(json)[1]["iteration"] = "pass";
    steps_of(json)[0]["push_constants"][1]["value"] = "pass";
    CHECK(contains(error_of(json),
                   "/candidates/1/steps/0/push_constants/1/value: bad expression: unknown "
                   "variable 'pass'"));

    json = saxpy_with_steps();
    steps_of(json)[1]["iteration"] = "pass";
    steps_of(json)[0]["specialization"]["0"] = "pass";
    CHECK(contains(error_of(json),
                   "/candidates/1/steps/0/specialization/0: bad expression: unknown variable "
                   "'pass'"));

    CHECK(second_step_error("iteration", "WG") ==
          "/nonexistent/problem.json: /candidates/1/steps/1/iteration: iteration variable 'WG' "
          "has the name of a key or grid parameter; expected a distinct name");
}

TEST_CASE("an unknown field of a step gets a suggestion") {
    CHECK(contains(second_step_error("repaet", 2),
                   "/candidates/1/steps/1/repaet: unknown field 'repaet' (did you "
                   "mean 'repeat'?)"));
}

TEST_CASE("steps must be a non-empty array of steps that each name a module and workgroups") {
    Json json = saxpy_with_steps();
    steps_of(json) = Json::array();
    CHECK(contains(error_of(json), "/candidates/1/steps: expected a non-empty array of steps"));

    json = saxpy_with_steps();
    steps_of(json)[1].erase("spirv");
    steps_of(json)[1].erase("workgroups");
    const auto errors = errors_of(json);
    REQUIRE(errors.size() == 2);
    CHECK(contains(errors[0],
                   "/candidates/1/steps/1: missing required field 'spirv' (or "
                   "'glsl'), in the step or the candidate"));
    CHECK(contains(errors[1],
                   "/candidates/1/steps/1: missing required field 'workgroups', in "
                   "the step or the candidate"));
}

TEST_CASE("steps inherit the one-dispatch fields of the candidate and the defaults") {
    // "twice" with nothing written twice: the defaults give the module and the push constants,
    // the candidate the specialization and workgroups, each step only its bindings.
    Json json = saxpy_with_steps();
    json["defaults"] = {{"spirv", "saxpy.spv"},
                        {"push_constants", steps_of(json)[0]["push_constants"]}};
    Json& twice = json["candidates"][1];
    twice["specialization"] = {{"0", "WG"}};
    twice["workgroups"] = steps_of(json)[0]["workgroups"];
    twice["steps"] = {{{"bindings", {{"0", "x"}, {"1", "y"}}}},
                      {{"bindings", {{"0", "t"}, {"1", "y"}}}}};
    const Problem problem = parse(json);
    const CandidateFamily& family = problem.families.at(1);
    REQUIRE(family.steps.size() == 2);
    CHECK(family.steps[1].bindings.at(0).buffer == 2);  // t, the step's own
    const ResolvedCandidate candidate = resolved(problem, "twice[WG=64]", 1000);
    REQUIRE(candidate.dispatches.size() == 2);
    for (const ResolvedDispatch& dispatch : candidate.dispatches) {
        CHECK(dispatch.workgroup_size[0] == 64);
        CHECK(dispatch.workgroup_counts[0] == 16);
        CHECK(dispatch.push_constants.size() == 8);
    }
    // An inherited field's fault is reported where it was written.
    twice["workgroups"][0] = "ceil_div(n, WGG)";
    CHECK(contains(error_of(json),
                   "/candidates/1/workgroups/0: bad expression: unknown "
                   "variable 'WGG'"));
}

TEST_CASE("a variant's field reaches every step that does not write its own") {
    // A split pass reusing the plain kernel's tile variants: the variants set the
    // specialization, the second step keeps its own.
    Json json = saxpy_with_steps();
    Json& twice = json["candidates"][1];
    twice.erase("grid");
    steps_of(json)[0].erase("specialization");
    steps_of(json)[0]["workgroups"][0] = "ceil_div(n, 64)";
    steps_of(json)[1]["specialization"] = {{"0", 64}};
    steps_of(json)[1]["workgroups"][0] = "ceil_div(n, 64)";
    twice["variants"] = {{{"name", "small"}, {"specialization", {{"0", 32}}}},
                         {{"name", "large"}, {"specialization", {{"0", 128}}}}};
    json["reference"]["candidate"] = "saxpy[WG=64]";
    const Problem problem = parse(json);
    const ResolvedCandidate small = resolved(problem, "twice[small]", 1000);
    CHECK(small.dispatches.at(0).workgroup_size[0] == 32);
    CHECK(small.dispatches.at(1).workgroup_size[0] == 64);
    CHECK(resolved(problem, "twice[large]", 1000).dispatches.at(0).workgroup_size[0] == 128);
}

TEST_CASE(
    "a step's spirv drops an inherited glsl with its fields, and a glsl step's fields are "
    "checked") {
    Json json = saxpy_with_steps();
    json["defaults"] = {{"glsl", "nowhere.comp"}, {"defines", {{"WG_SIZE", 64}}}};
    // Each step gives "spirv": neither the GLSL nor its defines reach it.
    CHECK(parse(json).families.at(1).steps.size() == 2);
    steps_of(json)[1]["defines"] = {{"WG_SIZE", 64}};
    CHECK(contains(error_of(json),
                   "/candidates/1/steps/1/defines: 'defines' belongs to a "
                   "\"glsl\" step; this one gives \"spirv\""));
}

TEST_CASE("a candidate's digest changes with its steps, and a one-step candidate's does not") {
    Json json = saxpy_with_steps();
    const Problem before = parse(json);
    steps_of(json)[1]["repeat"] = 2;
    const Problem after = parse(json);
    CHECK(candidate_digest(before, 0) == candidate_digest(after, 0));
    CHECK(candidate_digest(before, 3) != candidate_digest(after, 3));
}

}  // namespace candidate_steps_test
