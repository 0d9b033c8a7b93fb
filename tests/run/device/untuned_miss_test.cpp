// A shipped cache's application (MissPolicy::run_preferred, run_nearest) never measures and so
// checks no output: a key its reference cannot run still runs the most preferred candidate that
// can, and fails only when none can. A tuning run still needs the reference. Under run_nearest
// an untuned key runs the nearest tuned key's winner, and the report says so.
#include <algorithm>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/run/problem_tuning.hpp>
#include <spvtune/tune/in_memory_store.hpp>

#include "problem/problem_test_support.hpp"
#include "vulkan/vulkan_fixture.hpp"

namespace untuned_miss_test {

using namespace spvtune;
using namespace spvtune::problem;
using namespace spvtune::run;

namespace {

/// saxpy over WG 32..256 where a candidate runs only when it needs at most 32 workgroups: for
/// n = 4096 the reference (WG=64) and the first registered point (WG=32) cannot run it, WG=128
/// and WG=256 can.
Problem saxpy_limited_workgroups() {
    auto json = testing::saxpy_json();
    json["candidates"][0]["grid"]["WG"] = {32, 64, 128, 256};
    json["candidates"][0]["constraints"] = {"n <= WG * 32"};
    return testing::parse(json);
}

struct Events {
    std::vector<tune::TuneEventKind> kinds;
    std::string untuned_candidate;
    std::string untuned_message;
};

TuningOptions never_measure(Events& events) {
    TuningOptions options;
    options.tuner.store = std::make_shared<tune::InMemoryStore>();
    options.tuner.miss_policy = tune::MissPolicy::run_preferred;
    options.tuner.reporter = [&events](const tune::TuneEvent& event) {
        events.kinds.push_back(event.kind);
        if (event.kind == tune::TuneEventKind::untuned_miss) {
            events.untuned_candidate = std::string(event.candidate);
            events.untuned_message = std::string(event.message);
        }
    };
    return options;
}

/// Runs key `n` of `problem` on the device as a shipped cache's application does.
KeyReport run_never_measuring(const Problem& problem, std::int64_t n, Events& events) {
    test::VulkanFixture vulkan;
    ProblemTuning tuning(problem, vulkan.device(), never_measure(events));
    return tuning.tune(ProblemKey({{"n", n}}));
}

}  // namespace

TEST_CASE("a key the reference cannot run runs the most preferred candidate that can") {
    const Problem problem = saxpy_limited_workgroups();
    Events events;
    const KeyReport report = run_never_measuring(problem, 4096, events);

    CHECK(report.error == "");
    CHECK(report.status == KeyStatus::untuned);
    REQUIRE(report.ran);
    CHECK(problem.candidates[*report.ran].name == "saxpy[WG=128]");
    CHECK_FALSE(report.reference);
    // Why the preferred candidates did not run: the plan's reasons, and the tuner's event.
    REQUIRE(report.skipped.size() == 2);
    CHECK(report.skipped[0].name == "saxpy[WG=32]");
    CHECK(report.skipped[1].name == "saxpy[WG=64]");
    CHECK(report.skipped[1].reason.find("n <= WG * 32") != std::string::npos);
    CHECK(events.untuned_candidate == "saxpy[WG=128]");
    CHECK(events.untuned_message.find("passed over saxpy[WG=32]") != std::string::npos);
    CHECK(std::count(events.kinds.begin(), events.kinds.end(), tune::TuneEventKind::untuned_miss) ==
          1);
}

TEST_CASE("a key no candidate can run fails under run_preferred too, naming each reason") {
    Events events;
    const KeyReport report = run_never_measuring(saxpy_limited_workgroups(), 65536, events);
    CHECK(report.status == KeyStatus::failed);
    CHECK_FALSE(report.ran);
    CHECK(report.error.find("no candidate can run this key") == 0);
    CHECK(report.error.find("saxpy[WG=256]") != std::string::npos);
}

TEST_CASE("tuning a key the reference cannot run still fails: its outputs cannot be checked") {
    test::VulkanFixture vulkan;
    const Problem problem = saxpy_limited_workgroups();
    TuningOptions options;
    options.tuner.sampling = tune::SamplingSettings::fixed(0, 2);
    ProblemTuning tuning(problem, vulkan.device(), options);
    const KeyReport report = tuning.tune(ProblemKey({{"n", std::int64_t{4096}}}));
    CHECK(report.status == KeyStatus::failed);
    CHECK_FALSE(report.ran);
    CHECK(report.error.find("the reference candidate saxpy[WG=64] cannot run this key") == 0);
}

TEST_CASE("under run_nearest an untuned key runs the nearest tuned key's winner and says so") {
    test::VulkanFixture vulkan;
    const Problem problem = testing::parse(testing::saxpy_json());
    auto store = std::make_shared<tune::InMemoryStore>();
    TuningOptions tune_options;
    tune_options.tuner.store = store;
    tune_options.tuner.sampling = tune::SamplingSettings::fixed(0, 2);
    const KeyReport tuned = ProblemTuning(problem, vulkan.device(), tune_options)
                                .tune(ProblemKey({{"n", std::int64_t{1024}}}));
    REQUIRE(tuned.entry);
    CHECK(answer_source(tuned) == "exact");

    Events events;
    TuningOptions nearest = never_measure(events);
    nearest.tuner.store = store;
    nearest.tuner.miss_policy = tune::MissPolicy::run_nearest;
    ProblemTuning application(problem, vulkan.device(), nearest);
    const KeyReport report = application.tune(ProblemKey({{"n", std::int64_t{4096}}}));
    CHECK(report.status == KeyStatus::untuned);
    REQUIRE(report.ran);
    CHECK(problem.candidates[*report.ran].name == tuned.entry->winner_name);
    CHECK(report.nearest_key == "n=1024");
    CHECK(answer_source(report) == "nearest (from n=1024)");
    CHECK(application.tune(ProblemKey({{"n", std::int64_t{1024}}})).status == KeyStatus::cached);

    // With nothing tuned, the default: the most preferred candidate.
    Events none;
    TuningOptions empty = never_measure(none);
    empty.tuner.miss_policy = tune::MissPolicy::run_nearest;
    const KeyReport fallback = ProblemTuning(problem, vulkan.device(), empty)
                                   .tune(ProblemKey({{"n", std::int64_t{4096}}}));
    CHECK(answer_source(fallback) == "default");
    REQUIRE(fallback.ran);
    CHECK(problem.candidates[*fallback.ran].name == "saxpy[WG=32]");
}

}  // namespace untuned_miss_test
