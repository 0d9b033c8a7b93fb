// A reference that stops early (tests/cli/kernels/capped_loop.comp: 'ref' ends its loop after
// 1533 steps, as lavapipe ends a loop after 65,535 iterations) leaves d[1533..] unwritten. The
// key fails for the reference, named with the buffer and the range, or the next reference of a
// list takes over; no correct candidate is called wrong for it.

#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "tune_fixture.hpp"

namespace broken_reference_test {

using namespace spvtune::test;

const std::string unwritten =
    "the reference 'ref' did not write d[1533..4095] (2563 of 4096 elements)";

TEST_CASE("tune: a reference that leaves elements unwritten fails the key, not the candidates") {
    TuneFixture fixture;
    const SpvtuneRun run = fixture.tune("broken_reference.json");
    CHECK(run.exit_code == 1);
    const auto keys = fixture.keys();
    REQUIRE(keys.size() == 1);
    CHECK(keys[0].at("status") == "failed");
    const std::string error = keys[0].at("error").get<std::string>();
    CHECK_MESSAGE(
        contains(error, "no reference output can be trusted, so no candidate was checked"), error);
    CHECK_MESSAGE(contains(error, unwritten), error);
    CHECK_MESSAGE(!contains(error, "wide"), error);
    CHECK_MESSAGE(!contains(error, "narrow"), error);
    CHECK_MESSAGE(!contains(error, "expected nan"), error);
    CHECK_MESSAGE(contains(run.out + run.err, unwritten), run.out << run.err);
    CHECK(!contains(run.out + run.err, "differs from 'ref'"));
}

TEST_CASE("tune: with a reference list the next reference takes over from one that stops early") {
    TuneFixture fixture;
    const SpvtuneRun run = fixture.tune("broken_reference_list.json");
    REQUIRE_MESSAGE(run.exit_code == 0, run.out << run.err);
    const auto keys = fixture.keys();
    REQUIRE(keys.size() == 1);
    CHECK(keys[0].at("status") == "tuned");
    CHECK(keys[0].at("reference") == "wide");
    const auto& ref = candidate(keys[0], "ref");
    CHECK(ref.at("status") == "wrong output");
    CHECK(ref.at("reason") == unwritten + "; checked against 'wide' instead");
    CHECK(candidate(keys[0], "narrow").at("status") != "wrong output");
    CHECK_MESSAGE(contains(run.out, "checked against wide"), run.out);
    CHECK_MESSAGE(contains(run.out + run.err, unwritten + "; checked against 'wide' instead"),
                  run.out << run.err);
}

}  // namespace broken_reference_test
