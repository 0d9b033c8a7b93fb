// A reference that gives NaN where the candidates agree on finite values
// (tests/cli/kernels/nan_reference.comp: 'ref' writes 0/0 at d[3..7], 'a' and 'b' compute
// 2 * s + 1 there). The key fails for the reference, named with the buffer and the range, or the
// next reference of a list takes over; neither candidate is called wrong for it.

#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "tune_fixture.hpp"

namespace nan_reference_test {

using namespace spvtune::test;

const std::string gave_nan =
    "the reference 'ref' gave NaN at d[3..7] (5 of 64 elements) where "
    "'a' and 'b' agree on finite values";

TEST_CASE("tune: a reference that gives NaN where two candidates agree fails the key for it") {
    TuneFixture fixture;
    const SpvtuneRun run = fixture.tune("nan_reference.json");
    CHECK(run.exit_code == 1);
    const auto keys = fixture.keys();
    REQUIRE(keys.size() == 1);
    CHECK(keys[0].at("status") == "failed");
    const std::string error = keys[0].at("error").get<std::string>();
    CHECK_MESSAGE(
        contains(error, "no reference output can be trusted, so no candidate was checked"), error);
    CHECK_MESSAGE(contains(error, gave_nan), error);
    CHECK_MESSAGE(!contains(error, "differs from"), error);
    CHECK_MESSAGE(contains(run.out + run.err, gave_nan), run.out << run.err);
    CHECK(!contains(run.out + run.err, "differs from 'ref'"));
}

TEST_CASE("tune: with a reference list the next reference takes over from one that gives NaN") {
    TuneFixture fixture;
    const SpvtuneRun run = fixture.tune("nan_reference_list.json");
    REQUIRE_MESSAGE(run.exit_code == 0, run.out << run.err);
    const auto keys = fixture.keys();
    REQUIRE(keys.size() == 1);
    CHECK(keys[0].at("status") == "tuned");
    CHECK(keys[0].at("reference") == "a");
    const auto& ref = candidate(keys[0], "ref");
    CHECK(ref.at("status") == "wrong output");
    CHECK(ref.at("reason") == gave_nan + "; checked against 'a' instead");
    CHECK(candidate(keys[0], "b").at("status") != "wrong output");
    CHECK_MESSAGE(contains(run.out + run.err, gave_nan + "; checked against 'a' instead"),
                  run.out << run.err);
}

}  // namespace nan_reference_test
