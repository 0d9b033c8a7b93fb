// What a candidate does to memory it must not touch: a write into a buffer declared input is
// reported and undone before the next candidate reads it, and check warns of the binding that
// allows it; a write past the end of a buffer lands in its guard zone, even on a device that
// bounds-checks storage accesses (lavapipe), and is reported with how far it went (issue 29).

#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "tune_fixture.hpp"

namespace memory_guard_test {

using namespace spvtune::test;

/// The statuses of a candidate that passed its check.
bool checked_ok(const nlohmann::json& entry) {
    const std::string status = entry.at("status");
    return status == "winner" || status == "tied" || status == "ok";
}

TEST_CASE("a candidate that writes into an input buffer is rejected and the next sees the input") {
    TuneFixture fixture;
    const SpvtuneRun run = fixture.tune("input_write.json");
    INFO(run.out << run.err);
    const nlohmann::json key = fixture.keys().at(0);
    const nlohmann::json& in_place = candidate(key, "in_place");
    CHECK(in_place.at("status") == "wrong output");
    CHECK_MESSAGE(contains(in_place.value("reason", ""),
                           "writes to input buffer 'x': 4096 of 4096 elements changed, the first "
                           "at x[0]"),
                  in_place.dump());
    // It computed y in place in x; the candidate after it reads the original x again.
    const nlohmann::json& after = candidate(key, "after");
    CHECK_MESSAGE(checked_ok(after), after.dump());
    CHECK(checked_ok(candidate(key, "reference")));
}

TEST_CASE("check warns once of an input buffer bound where its shader may write it") {
    TuneFixture fixture;
    const SpvtuneRun run = run_spvtune(
        fixture.scratch,
        {"check", problems + "/input_write.json", "--kernel-dir", SPVTUNE_CLI_TEST_KERNEL_DIR});
    REQUIRE_MESSAGE(run.exit_code == 0, run.out << run.err);
    CHECK_MESSAGE(contains(run.out,
                           "  warning: input buffer 'x' is bound to binding 0.0 of "
                           "add_one_in_place.spv:main, which does not declare it "
                           "readonly (NonWritable)\n"),
                  run.out);
    // Only the in-place candidate: the two others read x through a readonly binding, and y is
    // an output.
    CHECK_MESSAGE(run.out.find("warning:") == run.out.rfind("warning:"), run.out);
    CHECK(run.err.empty());
}

TEST_CASE("a candidate that writes past the end of a buffer is rejected with how far it went") {
    TuneFixture fixture;
    const SpvtuneRun run = fixture.tune("overrun.json");
    INFO(run.out << run.err);
    const nlohmann::json key = fixture.keys().at(0);
    const nlohmann::json& unguarded = candidate(key, "unguarded");
    CHECK(unguarded.at("status") == "wrong output");
    // 16 workgroups of 64 invocations write y[0] to y[1023]: 22 elements past the 1002 of y.
    CHECK_MESSAGE(contains(unguarded.value("reason", ""),
                           "wrote past the end of 'y': 22 elements (88 bytes) beyond its 1002"),
                  unguarded.dump());
    CHECK(candidate(key, "guarded").at("status") == "winner");
    CHECK(key.at("winner") == "guarded");
}

}  // namespace memory_guard_test
