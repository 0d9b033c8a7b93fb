// A reference at fault fails the key for itself, named with the buffer and the range, or the
// next reference of a list takes over; no correct candidate is called wrong for it. Two ways to
// be at fault, each with a kernel of its own:
// - stopping early (tests/cli/kernels/capped_loop.comp: 'ref' ends its loop after 1533 steps,
//   as lavapipe ends a loop after 65,535 iterations) leaves d[1533..] unwritten;
// - giving NaN where the candidates agree on finite values
//   (tests/cli/kernels/nan_reference.comp: 'ref' writes 0/0 at d[3..7]).

#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "tune_fixture.hpp"

namespace broken_reference_test {

using namespace spvtune::test;

const std::string unwritten =
    "the reference 'ref' did not write d[1533..4095] (2563 of 4096 elements)";
const std::string gave_nan =
    "the reference 'ref' gave NaN at d[3..7] (5 of 64 elements) where "
    "'a' and 'b' agree on finite values";

/// Tunes `problem`, whose one reference 'ref' is at fault for `reason`: the key fails for it
/// alone, and no candidate is compared with it.
void check_key_fails_for_reference(const std::string& problem, const std::string& reason) {
    TuneFixture fixture;
    const SpvtuneRun run = fixture.tune(problem);
    CHECK(run.exit_code == 1);
    const auto keys = fixture.keys();
    REQUIRE(keys.size() == 1);
    CHECK(keys[0].at("status") == "failed");
    const std::string error = keys[0].at("error").get<std::string>();
    CHECK_MESSAGE(
        contains(error, "no reference output can be trusted, so no candidate was checked"), error);
    CHECK_MESSAGE(contains(error, reason), error);
    CHECK_MESSAGE(!contains(error, "differs from"), error);
    CHECK_MESSAGE(!contains(error, "not checked"), error);
    CHECK_MESSAGE(!contains(error, "expected nan"), error);
    CHECK_MESSAGE(contains(run.out + run.err, reason), run.out << run.err);
    CHECK(!contains(run.out + run.err, "differs from 'ref'"));
}

/// Tunes `problem`, whose references are 'ref', at fault for `reason`, then `next`: `next` takes
/// over, and `other` is not called wrong.
void check_next_reference_takes_over(const std::string& problem, const std::string& reason,
                                     const std::string& next, const std::string& other) {
    TuneFixture fixture;
    const SpvtuneRun run = fixture.tune(problem);
    REQUIRE_MESSAGE(run.exit_code == 0, run.out << run.err);
    const auto keys = fixture.keys();
    REQUIRE(keys.size() == 1);
    CHECK(keys[0].at("status") == "tuned");
    CHECK(keys[0].at("reference") == next);
    const auto& ref = candidate(keys[0], "ref");
    CHECK(ref.at("status") == "wrong output");
    const std::string gave_way = reason + "; checked against '" + next + "' instead";
    CHECK(ref.at("reason") == gave_way);
    CHECK(candidate(keys[0], other).at("status") != "wrong output");
    CHECK_MESSAGE(contains(run.out, "checked against " + next), run.out);
    CHECK_MESSAGE(contains(run.out + run.err, gave_way), run.out << run.err);
}

TEST_CASE("tune: a reference that leaves elements unwritten fails the key, not the candidates") {
    check_key_fails_for_reference("broken_reference.json", unwritten);
}

TEST_CASE("tune: with a reference list the next reference takes over from one that stops early") {
    check_next_reference_takes_over("broken_reference_list.json", unwritten, "wide", "narrow");
}

TEST_CASE("tune: a reference that gives NaN where two candidates agree fails the key for it") {
    check_key_fails_for_reference("nan_reference.json", gave_nan);
}

TEST_CASE("tune: with a reference list the next reference takes over from one that gives NaN") {
    check_next_reference_takes_over("nan_reference_list.json", gave_nan, "a", "b");
}

}  // namespace broken_reference_test
