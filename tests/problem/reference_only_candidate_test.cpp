#include <doctest/doctest.h>

#include "problem_test_support.hpp"

namespace reference_only_candidate_test {

using namespace spvtune::problem;
using namespace spvtune::problem::testing;

// `"reference_only": true` on a candidate: it must be a reference, and some other candidate must
// be able to win.

namespace {

/// saxpy with a second, reference-only candidate "simple" that is the reference.
Json saxpy_with_simple_reference() {
    Json json = saxpy_json();
    Json simple = json["candidates"][0];
    simple["name"] = "simple";
    simple.erase("grid");
    simple["specialization"] = {{"0", 64}};
    simple["workgroups"][0] = "ceil_div(n, 64)";
    simple["reference_only"] = true;
    json["candidates"].push_back(simple);
    json["reference"]["candidate"] = "simple";
    return json;
}

}  // namespace

TEST_CASE("a reference-only candidate is read onto its family") {
    const Problem problem = parse(saxpy_with_simple_reference());
    REQUIRE(problem.families.size() == 2);
    CHECK_FALSE(problem.families[0].reference_only);
    CHECK(problem.families[1].reference_only);
}

TEST_CASE("a reference-only candidate that is no reference is an error at its field") {
    Json json = saxpy_with_simple_reference();
    json["reference"]["candidate"] = "saxpy[WG=64]";
    CHECK(error_of(json) ==
          "/nonexistent/problem.json: /candidates/1/reference_only: candidate 'simple' is "
          "reference only but not listed in /reference/candidate; expected it there (else it "
          "would never run)");
}

TEST_CASE("a problem whose candidates are all reference-only is an error") {
    Json json = saxpy_with_simple_reference();
    json["candidates"].erase(0);
    CHECK(contains(error_of(json),
                   "/candidates: every candidate is reference only; expected "
                   "at least one that may be the winner"));
}

TEST_CASE("reference_only must be a boolean") {
    Json json = saxpy_with_simple_reference();
    json["candidates"][1]["reference_only"] = "yes";
    CHECK(contains(error_of(json), "/candidates/1/reference_only: expected"));
}

}  // namespace reference_only_candidate_test
