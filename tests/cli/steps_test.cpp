#include <filesystem>
#include <string>

#include <doctest/doctest.h>

#include "tune_fixture.hpp"

namespace steps_test {

using namespace spvtune::test;
namespace fs = std::filesystem;

// Candidates of several dispatch steps, tuned as a user would: in the worker process (the
// default) and in process, with a scratch buffer between the steps.

namespace {

void check_steps_report(const nlohmann::json& key) {
    CHECK(key.at("status") == "tuned");
    CHECK(candidate(key, "two_steps").at("status") != "wrong output");
    CHECK(candidate(key, "two_steps").contains("rank"));
    // Run in the wrong order, the second step's input is the scratch buffer as its init left
    // it, zeros: y = 0, and the comparison catches it.
    CHECK(candidate(key, "swapped").at("status") == "wrong output");
}

}  // namespace

TEST_CASE("a candidate of two steps through a scratch buffer matches the reference in a worker") {
    TuneFixture fixture;
    const SpvtuneRun run = fixture.tune("steps.json");
    REQUIRE_MESSAGE(run.exit_code == 0, run.out << run.err);
    REQUIRE(fixture.keys().size() == 1);
    check_steps_report(fixture.keys().at(0));
}

TEST_CASE("a candidate of two steps through a scratch buffer matches the reference in process") {
    TuneFixture fixture;
    const SpvtuneRun run = fixture.tune("steps.json", {"--in-process"});
    REQUIRE_MESSAGE(run.exit_code == 0, run.out << run.err);
    REQUIRE(fixture.keys().size() == 1);
    check_steps_report(fixture.keys().at(0));
}

TEST_CASE("--dump-outputs dumps the compared outputs of a candidate of steps, never scratch") {
    TuneFixture fixture;
    const fs::path dir = fixture.scratch.path() / "dump";
    const SpvtuneRun run = fixture.tune("steps.json", {"--dump-outputs", dir.string()});
    REQUIRE_MESSAGE(run.exit_code == 0, run.out << run.err);
    CHECK(fs::exists(dir / "steps-test.n=4096.two_steps.y.bin"));
    for (const auto& entry : fs::directory_iterator(dir)) {
        CAPTURE(entry.path());
        CHECK(entry.path().filename().string().find(".t.") == std::string::npos);
    }
}

TEST_CASE("check accepts a problem of steps and scratch buffers") {
    TuneFixture fixture;
    const SpvtuneRun run = run_spvtune(
        fixture.scratch, {"check", problems + "/steps.json", "--cache-dir", fixture.cache.string(),
                          "--kernel-dir", SPVTUNE_CLI_TEST_KERNEL_DIR});
    CHECK_MESSAGE(run.exit_code == 0, run.out << run.err);
    CHECK(contains(run.out, "key n=4096: 3 of 3 candidates"));
}

}  // namespace steps_test
