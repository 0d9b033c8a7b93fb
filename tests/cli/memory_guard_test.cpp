// What a candidate does to memory it must not touch: a write into a buffer declared input is
// reported and undone before the next candidate reads it, and check warns of the binding that
// allows it; a write past the end of a buffer lands in its guard zone, even on a device that
// bounds-checks storage accesses (lavapipe), and is reported with how far it went (issue 29).

#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "tune_fixture.hpp"

namespace memory_guard_test {

using namespace spvtune::test;
using spvtune::tune::testing::read_bytes;
using spvtune::tune::testing::write_bytes;

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

TEST_CASE("a kernel that overruns by design passes when its buffers declare the padding") {
    // The same unguarded copy, with x and y padded to the 1024 elements its 16 workgroups of
    // 64 read and write: the reads past n find zeros, the writes land in y's padding, which no
    // check covers, and the guard zone after it stays untouched.
    TuneFixture fixture;
    nlohmann::json problem = nlohmann::json::parse(read_bytes(problems + "/overrun.json"));
    for (const char* buffer : {"x", "y"}) {
        problem["buffers"][buffer]["padding"] = "64 * ceil_div(n, 64) - n";
    }
    const auto file = fixture.scratch.path() / "padded.json";
    write_bytes(file, problem.dump());
    const SpvtuneRun run =
        run_spvtune(fixture.scratch,
                    {"tune", file.string(), "--cache-dir", fixture.cache.string(), "--kernel-dir",
                     SPVTUNE_CLI_TEST_KERNEL_DIR, "--json", fixture.report.string()});
    REQUIRE_MESSAGE(run.exit_code == 0, run.out << run.err);
    CHECK_MESSAGE(!contains(run.err, "validation"), run.err);
    const nlohmann::json key = fixture.keys().at(0);
    const nlohmann::json& unguarded = candidate(key, "unguarded");
    CHECK_MESSAGE(checked_ok(unguarded), unguarded.dump());
    CHECK(checked_ok(candidate(key, "guarded")));
}

TEST_CASE("outputs outside the checked range are dumped as 0, in a worker and in process alike") {
    // `guarded` leaves y's padding as the poison it was filled with before the run; the checks
    // see those elements as 0, and so does a dump, whichever process ran the kernel.
    TuneFixture fixture;
    nlohmann::json problem = nlohmann::json::parse(read_bytes(problems + "/overrun.json"));
    problem["buffers"]["y"]["padding"] = 22;
    const auto file = fixture.scratch.path() / "padded.json";
    write_bytes(file, problem.dump());
    std::vector<std::string> dumps;
    for (const bool in_process : {false, true}) {
        CAPTURE(in_process);
        const auto dir = fixture.scratch.path() / (in_process ? "in-process" : "worker");
        std::vector<std::string> args{"tune",         file.string(),
                                      "--cache-dir",  fixture.cache.string(),
                                      "--kernel-dir", SPVTUNE_CLI_TEST_KERNEL_DIR,
                                      "--retune",     "--dump-outputs",
                                      dir.string()};
        if (in_process) {
            args.emplace_back("--in-process");
        }
        const SpvtuneRun run = run_spvtune(fixture.scratch, args);
        REQUIRE_MESSAGE(run.exit_code == 0, run.out << run.err);
        const std::string bytes = read_bytes(dir / "overrun-test.n=1002.guarded.y.bin");
        REQUIRE(bytes.size() == 1024 * sizeof(float));
        const std::string padding = bytes.substr(1002 * sizeof(float));
        CHECK(padding == std::string(22 * sizeof(float), '\0'));
        // The elements the kernel wrote are there: not all zero.
        CHECK(bytes.substr(0, 1002 * sizeof(float)) != std::string(1002 * sizeof(float), '\0'));
        dumps.push_back(bytes);
    }
    CHECK(dumps[0] == dumps[1]);
}

}  // namespace memory_guard_test
