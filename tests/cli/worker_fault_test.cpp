// `spvtune tune` runs candidates in a worker process under a watchdog: each fault the worker
// can fake (SPVTUNE_TEST_WORKER_FAULT, see lib/run/src/worker/test_fault.hpp) costs the
// faulty candidate only. The healthy ones still rank, the winner is stored, the run exits 1,
// and a second run answers every key from the cache.

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <string>
#include <sys/types.h>
#include <thread>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "cache/subprocess.hpp"
#include "tune_fixture.hpp"

namespace worker_fault_test {

using namespace spvtune::test;
using spvtune::tune::testing::read_bytes;
using spvtune::tune::testing::write_bytes;

namespace {

/// Sets SPVTUNE_TEST_WORKER_FAULT for the runs of one test.
struct FaultSwitch {
    explicit FaultSwitch(const std::string& fault) {
        ::setenv("SPVTUNE_TEST_WORKER_FAULT", fault.c_str(), 1);
    }
    ~FaultSwitch() { ::unsetenv("SPVTUNE_TEST_WORKER_FAULT"); }
    FaultSwitch(const FaultSwitch&) = delete;
    FaultSwitch& operator=(const FaultSwitch&) = delete;
};

const char* const kernel_timeout = "2";

/// Tunes scale.json with `fast` faulting as `fault` says, and checks what every fault must
/// leave: exit 1, the fault named, `slow` the winner in the report and the cache, and a
/// second run of cache hits that exits 0.
void check_fault_costs_one_candidate(const std::string& fault, const std::string& reason,
                                     const std::string& status) {
    TuneFixture fixture;
    const FaultSwitch fault_switch(fault + ":fast");
    const auto start = std::chrono::steady_clock::now();
    // The healthy `slow` takes about 0.2 s a run under ASan on an idle machine, and more on a
    // loaded CI runner: the watchdog must leave it room, or it is killed too.
    const SpvtuneRun run = fixture.tune("scale.json", {"--kernel-timeout", kernel_timeout});
    const double took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    CHECK_MESSAGE(run.exit_code == 1, run.out << run.err);
    CHECK(took < 60);  // nothing waited for a fence timeout or a hung process
    CHECK_MESSAGE(contains(run.out, reason), run.out);
    CHECK(contains(run.out, "fast"));
    CHECK(contains(run.out, "timed out, crashed or lost the device"));
    const auto report = fixture.report_json();
    CHECK(report.at("faulted_candidates") == 1);  // the second key does not run it again
    const auto keys = fixture.keys();
    REQUIRE(keys.size() == 2);
    for (const auto& key : keys) {
        CHECK(key.at("status") == "tuned");
        CHECK(key.at("winner") == "slow");
        CHECK_MESSAGE(contains(candidate(key, "fast").at("reason").get<std::string>(), reason),
                      key.dump());
        CHECK(candidate(key, "slow").at("samples_ns").size() >= 3);
    }
    // The fault's own name where it happened; the next key did not run the candidate again.
    CHECK(candidate(keys[0], "fast").at("status") == status);
    CHECK(candidate(keys[1], "fast").at("status") == "error");
    CHECK(contains(candidate(keys[1], "fast").at("reason").get<std::string>(),
                   "not run again after a fault earlier in this run"));
    REQUIRE(fixture.cache_files().size() == 1);
    const auto cache = nlohmann::json::parse(read_bytes(fixture.cache_files().front()));
    const auto& entries = cache.at("tuners").at("scale-test").begin()->at("entries");
    CHECK(entries.size() == 2);
    for (const auto& entry : entries) {
        CHECK(entry.at("winner").at("name") == "slow");
        CHECK(contains(entry.at("failures").dump(), "\"fast\""));
    }

    const SpvtuneRun second = fixture.tune("scale.json", {"--kernel-timeout", kernel_timeout});
    CHECK_MESSAGE(second.exit_code == 0, second.out << second.err);
    for (const auto& key : fixture.keys()) {
        CHECK(key.at("status") == "cached");
        CHECK(key.at("winner") == "slow");
        CHECK_FALSE(measured_anything(key));
    }
}

}  // namespace

TEST_CASE("tune: a hanging kernel times out, its worker is killed, the key goes on" *
          doctest::test_suite("timing")) {
    check_fault_costs_one_candidate("hang", "timed out: run did not finish within 3 s",
                                    "timed out");
}

TEST_CASE("tune: a worker that aborts mid-key crashes one candidate, the key goes on" *
          doctest::test_suite("timing")) {
    check_fault_costs_one_candidate("abort", "crashed: the worker died during measure", "crashed");
}

TEST_CASE("tune: a worker that crashes while building a pipeline crashes one candidate" *
          doctest::test_suite("timing")) {
    check_fault_costs_one_candidate("crash-in-pipeline", "crashed: the worker died during prepare",
                                    "crashed");
}

TEST_CASE("tune: a lost device costs the candidate that lost it, a fresh worker goes on" *
          doctest::test_suite("timing")) {
    check_fault_costs_one_candidate("device-lost", "device lost: ", "device lost");
}

TEST_CASE("tune --in-process runs the candidates in the tuner, and the worker switch is ignored" *
          doctest::test_suite("timing")) {
    TuneFixture fixture;
    const FaultSwitch fault_switch("abort");
    const SpvtuneRun run = fixture.tune("scale.json", {"--in-process"});
    CHECK_MESSAGE(run.exit_code == 0, run.out << run.err);
    CHECK(fixture.report_json().at("faulted_candidates") == 0);
    for (const auto& key : fixture.keys()) {
        CHECK(key.at("winner") == "fast");
    }
}

TEST_CASE("tune: a problem file's kernel_timeout_s sets the watchdog, --kernel-timeout overrides" *
          doctest::test_suite("timing")) {
    TuneFixture fixture;
    const FaultSwitch fault_switch("hang:fast");
    auto json = nlohmann::json::parse(read_bytes(problems + "/scale.json"));
    json["settings"]["kernel_timeout_s"] = 0.2;
    const auto file = fixture.scratch.path() / "scale.json";
    write_bytes(file, json.dump());
    const std::vector<std::string> args{"tune",         file.string(),
                                        "--cache-dir",  fixture.cache.string(),
                                        "--kernel-dir", SPVTUNE_CLI_TEST_KERNEL_DIR};
    const SpvtuneRun from_file = run_spvtune(fixture.scratch, args);
    CHECK(from_file.exit_code == 1);
    // The reason names the deadline: the kernel timeout plus the allowance for transfers.
    CHECK_MESSAGE(contains(from_file.out, "within 1.2 s (kernel timeout 200 ms"), from_file.out);

    auto overridden = args;
    overridden.insert(overridden.end(), {"--retune", "--kernel-timeout", "0.3"});
    const SpvtuneRun from_option = run_spvtune(fixture.scratch, overridden);
    CHECK(from_option.exit_code == 1);
    CHECK_MESSAGE(contains(from_option.out, "within 1.3 s (kernel timeout 300 ms"),
                  from_option.out);
}

namespace {

/// Whether process `pid` is stopped (state T in /proc/<pid>/stat).
bool is_stopped(pid_t pid) {
    const std::string stat = read_bytes("/proc/" + std::to_string(pid) + "/stat");
    const auto after_name = stat.rfind(')');
    return after_name != std::string::npos && stat.substr(after_name + 2, 1) == "T";
}

}  // namespace

// Ctrl-Z then fg stops tune and its worker together for as long as the user likes; the time
// stopped is no kernel's. It was counted: the measure in flight was "timed out", its worker
// killed and the candidate dropped for the run (issue 34).
TEST_CASE("tune: a process group stopped and continued mid-measure is no timeout" *
          doctest::test_suite("timing")) {
    TuneFixture fixture;
    const FaultSwitch fault_switch("stop-group:fast");
    // In a session of its own (setsid execs in place: the spawned process leads no group), so
    // that the worker's SIGSTOP to its group stops tune and the worker, not this test.
    const std::vector<std::string> argv{"/usr/bin/setsid",
                                        SPVTUNE_BINARY,
                                        "tune",
                                        problems + "/scale.json",
                                        "--cache-dir",
                                        fixture.cache.string(),
                                        "--kernel-dir",
                                        SPVTUNE_CLI_TEST_KERNEL_DIR,
                                        "--json",
                                        fixture.report.string(),
                                        "--kernel-timeout",
                                        kernel_timeout};
    const auto err_file = fixture.scratch.path() / "stderr.txt";
    spvtune::tune::testing::Subprocess tune(argv, err_file);
    const pid_t group = tune.pid();
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!is_stopped(group) && std::chrono::steady_clock::now() < give_up) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    REQUIRE_MESSAGE(is_stopped(group), "tune never stopped");
    // Stopped longer than the watchdog gives the first measure: two kernels of the kernel
    // timeout (2 s, for a sanitizer build's slow kernels), the window and 1 s.
    std::this_thread::sleep_for(std::chrono::seconds(7));
    REQUIRE(::kill(-group, SIGCONT) == 0);
    const std::string out = tune.read_stdout();
    const int exit_code = tune.wait();
    const std::string err = read_bytes(err_file);
    CHECK_MESSAGE(exit_code == 0, out << err);
    CHECK_MESSAGE(!contains(out, "timed out"), out);
    CHECK(fixture.report_json().at("faulted_candidates") == 0);
    for (const auto& key : fixture.keys()) {
        CHECK(key.at("winner") == "fast");
    }
}

TEST_CASE("tune: a GLSL kernel that really never ends times out, the others rank and are cached" *
          doctest::test_suite("timing")) {
    TuneFixture fixture;
    const SpvtuneRun run = fixture.tune("hang.json", {"--kernel-timeout", "0.5"});
    CHECK_MESSAGE(run.exit_code == 1, run.out << run.err);
    const auto keys = fixture.keys();
    REQUIRE(keys.size() == 1);
    CHECK(keys[0].at("winner") == "fast");
    CHECK(candidate(keys[0], "spin").at("status") == "timed out");
    const std::string reason = candidate(keys[0], "spin").at("reason");
    CHECK_MESSAGE(contains(reason, "timed out: run did not finish within 1.5 s"), reason);
    CHECK(fixture.report_json().at("faulted_candidates") == 1);

    const SpvtuneRun second = fixture.tune("hang.json", {"--kernel-timeout", "0.5"});
    CHECK_MESSAGE(second.exit_code == 0, second.out << second.err);
    CHECK(fixture.keys().at(0).at("status") == "cached");
}

}  // namespace worker_fault_test
