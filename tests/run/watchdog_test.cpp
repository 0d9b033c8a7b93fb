#include "worker/watchdog.hpp"

#include <chrono>

#include <doctest/doctest.h>

#include <spvtune/problem/problem_key.hpp>

namespace watchdog_test {

using spvtune::problem::ProblemKey;
using spvtune::run::worker::Watchdog;
using spvtune::tune::Sample;
using spvtune::tune::TimingMethod;
using namespace std::chrono_literals;

namespace {

const ProblemKey key({{"n", std::int64_t{4096}}});
const ProblemKey other({{"n", std::int64_t{8192}}});

}  // namespace

TEST_CASE("watchdog: before a key measured anything, a kernel gets a generous 25 s") {
    const Watchdog watchdog(std::nullopt, {});
    CHECK(watchdog.run(key).seconds == doctest::Approx(26));
    CHECK(watchdog.run(key).why.find("nothing measured") != std::string::npos);
}

TEST_CASE("watchdog: the derived timeout is max(2 s, 50x the key's best), per key") {
    Watchdog watchdog(std::nullopt, {});
    watchdog.measured(key, 0, Sample{1e6, TimingMethod::device_timestamps, 1});  // 1 ms
    CHECK(watchdog.run(key).seconds == doctest::Approx(2 + 1));
    watchdog.measured(key, 1, Sample{100e6, TimingMethod::device_timestamps, 1});  // 100 ms
    CHECK(watchdog.run(key).seconds == doctest::Approx(2 + 1));  // the best is still 1 ms
    watchdog.ran(other, 200ms);
    CHECK(watchdog.run(other).seconds == doctest::Approx(10 + 1));
    CHECK(watchdog.run(other).why.find("50x the key's best 200 ms") != std::string::npos);
}

TEST_CASE("watchdog: a batch the caller chose is allowed that many of its candidate's runs") {
    Watchdog watchdog(std::chrono::duration<double>(0.5), {});
    // Before the candidate has a sample: a kernel for each run of the batch.
    CHECK(watchdog.measure(key, 2, 8).seconds == doctest::Approx(8 * 0.5 + 1));
    // 2 ms a run, whatever batch it was measured over: 8 runs may take 16 ms plus one kernel.
    watchdog.measured(key, 2, Sample{2e6, TimingMethod::device_timestamps, 3});
    CHECK(watchdog.measure(key, 2, 8).seconds == doctest::Approx(0.5 + 0.016 + 1));
    CHECK(watchdog.measure(key, 2, 8).why.find("8 of its last") != std::string::npos);
    // Three such batches in one submission: all 24 runs, still one kernel's slack.
    CHECK(watchdog.measure(key, 2, 8, 3).seconds == doctest::Approx(0.5 + 0.048 + 1));
    CHECK(watchdog.measure(key, 2, 8, 3).why.find("24 of its last") != std::string::npos);
}

TEST_CASE("watchdog: a measure allows its candidate's batch, and a first sample its calibration") {
    spvtune::vulkan::BatchPolicy batch;
    batch.min_window = 1ms;
    Watchdog watchdog(std::chrono::duration<double>(0.5), batch);
    // First sample: a calibrating dispatch and a batch, each up to a kernel, and the window.
    CHECK(watchdog.measure(key, 3, spvtune::run::own_batch).seconds ==
          doctest::Approx(2 * 0.5 + 0.001 + 1));
    // 4000 dispatches of 1 ms: the next batch may take its 4 s plus one kernel.
    watchdog.measured(key, 3, Sample{1e6, TimingMethod::device_timestamps, 4000});
    CHECK(watchdog.measure(key, 3, spvtune::run::own_batch).seconds ==
          doctest::Approx(0.5 + 4 + 1));
    // The given timeout holds whatever was measured; prepare is a pipeline build, not a kernel.
    CHECK(watchdog.run(key).seconds == doctest::Approx(1.5));
    CHECK(watchdog.run(key).why.find("kernel timeout 500 ms") != std::string::npos);
    CHECK(watchdog.prepare().seconds == 120);
}

}  // namespace watchdog_test
