// `spvtune tune` starts a problem's worker process before it looks at the device itself, so that
// the worker's start (loading the driver, opening the device) overlaps the tuner's own, and the
// first key does not wait for all of it. The worker says when it starts, and the tuner when it
// makes one (SPVTUNE_TEST_WORKER_LOG, see lib/run/src/worker/test_fault.hpp).

#include <cerrno>
#include <csignal>
#include <filesystem>
#include <sstream>
#include <string>
#include <sys/types.h>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "support/scoped_env.hpp"
#include "tune_fixture.hpp"

namespace worker_start_test {

using namespace spvtune::test;
using spvtune::tune::testing::read_bytes;
using spvtune::tune::testing::write_bytes;

namespace {

/// Has the runs of one test log their workers' starts to `file`.
struct StartLog {
    explicit StartLog(std::filesystem::path log)
        : file(std::move(log)), setting("SPVTUNE_TEST_WORKER_LOG", file.string()) {}

    /// The process ids of the workers started so far, in order, as each logged itself.
    std::vector<pid_t> started() const { return logged("start"); }
    /// The process ids of the worker processes the tuner made, in order. A worker ended before
    /// its first line (the tuner's look at the device failed at once, on a slow machine) logs
    /// no start, but is spawned all the same.
    std::vector<pid_t> spawned() const { return logged("spawn"); }

    std::vector<pid_t> logged(const std::string& what) const {
        std::vector<pid_t> pids;
        if (!std::filesystem::exists(file)) {
            return pids;
        }
        std::istringstream lines(read_bytes(file));
        std::string word;
        pid_t pid = 0;
        while (lines >> word >> pid) {
            REQUIRE((word == "start" || word == "spawn"));
            if (word == what) {
                pids.push_back(pid);
            }
        }
        return pids;
    }

    std::filesystem::path file;
    ScopedEnv setting;
};

/// Runs `spvtune ARGS` in the fixture's scratch folder, with its cache and the test kernels.
SpvtuneRun run_with_cache(TuneFixture& fixture, std::vector<std::string> args) {
    args.insert(args.end(), {"--cache-dir", fixture.cache.string(), "--kernel-dir",
                             SPVTUNE_CLI_TEST_KERNEL_DIR});
    return run_spvtune(fixture.scratch, args);
}

bool still_running(pid_t pid) {
    return ::kill(pid, 0) == 0 || errno != ESRCH;
}

/// One worker process was made, before the look at the device that failed (there is none
/// after it), and it is gone: whether it lived long enough to log its own start or not.
void check_one_worker_ended(const StartLog& log) {
    const std::vector<pid_t> spawned = log.spawned();
    REQUIRE(spawned.size() == 1);
    CHECK_FALSE(still_running(spawned.front()));
    const std::vector<pid_t> started = log.started();
    CHECK(started.size() <= 1);
    if (!started.empty()) {
        CHECK(started.front() == spawned.front());
    }
}

}  // namespace

TEST_CASE(
    "tune: a problem's worker starts before the tuner looks at the device, and is ended "
    "when that look fails") {
    TuneFixture fixture;
    const StartLog log(fixture.scratch.path() / "workers.log");
    // No device matches: the tuner refuses the run once it looks. The worker it started before
    // that look must be ended with it, not left running.
    const SpvtuneRun run = fixture.tune("scale.json", {"--device", "no-such-device-anywhere"});
    CHECK(run.exit_code != 0);
    CHECK_MESSAGE(contains(run.err, "no-such-device-anywhere"), run.err);
    check_one_worker_ended(log);
    CHECK(fixture.cache_files().empty());
}

TEST_CASE(
    "compare: its worker starts before it looks at the device, and is ended when that "
    "look fails") {
    TuneFixture fixture;
    const StartLog log(fixture.scratch.path() / "workers.log");
    const SpvtuneRun run =
        run_with_cache(fixture, {"compare", problems + "/compare.json", "--baseline", "base",
                                 "--contender", "planted", "--device", "no-such-device-anywhere"});
    CHECK(run.exit_code != 0);
    CHECK_MESSAGE(contains(run.err, "no-such-device-anywhere"), run.err);
    check_one_worker_ended(log);
}

TEST_CASE("tune: the worker started early serves every key of its problem, one per problem") {
    TuneFixture fixture;
    const StartLog log(fixture.scratch.path() / "workers.log");
    const SpvtuneRun run = fixture.tune("scale.json");
    REQUIRE_MESSAGE(run.exit_code == 0, run.out << run.err);
    CHECK(fixture.keys().size() == 2);
    for (const auto& key : fixture.keys()) {
        CHECK(key.at("status") == "tuned");
    }
    CHECK(log.started().size() == 1);

    // A second problem has a worker of its own, started when its turn comes.
    const std::filesystem::path other = fixture.scratch.path() / "scale_again.json";
    nlohmann::json problem = nlohmann::json::parse(read_bytes(problems + "/scale.json"));
    problem["name"] = "scale-again";
    write_bytes(other, problem.dump());
    std::filesystem::remove(log.file);
    const SpvtuneRun both =
        run_with_cache(fixture, {"tune", problems + "/scale.json", other.string(), "--retune"});
    REQUIRE_MESSAGE(both.exit_code == 0, both.out << both.err);
    CHECK(log.started().size() == 2);
}

TEST_CASE(
    "tune: a problem listed first with no key selected leaves the worker started early to "
    "the problem it was started for") {
    TuneFixture fixture;
    const StartLog log(fixture.scratch.path() / "workers.log");
    // grid2.json has no key n=32768: only scale.json's is tuned, by the worker started for it.
    const SpvtuneRun run = run_with_cache(
        fixture, {"tune", problems + "/grid2.json", problems + "/scale.json", "--key", "n=32768"});
    REQUIRE_MESSAGE(run.exit_code == 0, run.out << run.err);
    CHECK(contains(run.out, "n=32768"));
    CHECK(log.started().size() == 1);
}

}  // namespace worker_start_test
