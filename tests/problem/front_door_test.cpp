// The example at the top of <spvtune/problem/problem_library.hpp>, compiled and run with that
// header alone: the shipped saxpy problem loaded, resolved for each key and identified, its
// expression language used alone, and a bad description refused with its diagnostics.
#include <cstdint>
#include <filesystem>
#include <string>

#include <doctest/doctest.h>

#include <spvtune/problem/problem_library.hpp>

namespace front_door_test {

using namespace spvtune;

TEST_CASE("the problem front door's example loads, resolves and identifies the saxpy problem") {
    const std::filesystem::path file = std::filesystem::path(SPVTUNE_CONFIG_DIR) / "saxpy.json";
    const problem::Problem p = problem::load_problem(file);
    REQUIRE(p.keys.size() == 3);
    REQUIRE(p.candidates.size() == 4);
    for (const problem::KeyEntry& key : p.keys) {
        CAPTURE(to_string(key.key));
        const auto buffers = problem::resolve_buffers(p, key.key);
        REQUIRE(buffers);
        CHECK(buffers.value().size() == 2);
        for (std::size_t c = 0; c < p.candidates.size(); ++c) {
            const auto candidate = problem::resolve_candidate(p, key.key, c, buffers.value());
            REQUIRE_MESSAGE(candidate, candidate.error());
            CHECK(candidate.value().dispatches.size() == 1);
        }
    }
    // The identity of the candidate list is the file's, not the load's.
    CHECK(problem::candidate_list_checksum(p) ==
          problem::candidate_list_checksum(problem::load_problem(file)));
    CHECK(problem::problem_cache_layout(p, tune::AutotuneLevel::balanced).tuner == "saxpy");
}

TEST_CASE("the problem front door's expression language works alone") {
    problem::Scope scope;
    scope.set("n", problem::Value(std::int64_t{1000}));
    const problem::Expression groups = problem::Expression::parse("ceil_div(n, 64)");
    CHECK(problem::as_int(groups.evaluate(scope), groups.text()) == 16);
    CHECK_THROWS_AS(problem::Expression::parse("n +"), problem::ExpressionError);
}

TEST_CASE("the problem front door refuses a bad description with every diagnostic") {
    try {
        problem::parse_problem(R"({"name": "x", "parameters": 3})", "bad.json");
        FAIL("a bad description was accepted");
    } catch (const problem::ProblemError& error) {
        REQUIRE_FALSE(error.diagnostics().empty());
        CHECK(std::string(error.what()).find("bad.json") != std::string::npos);
    }
}

}  // namespace front_door_test
