// DeviceExecutor on lavapipe: what it keeps built between calls, and what it watches.
#include <cstddef>
#include <string>

#include <doctest/doctest.h>

#include <spvtune/run/device_executor.hpp>
#include <spvtune/run/key_plan.hpp>

#include "problem/problem_test_support.hpp"
#include "vulkan/vulkan_fixture.hpp"

namespace device_executor_test {

using namespace spvtune;
using namespace spvtune::problem;
using namespace spvtune::run;

TEST_CASE("the device executor frees the least recently used candidate's pipelines past its cap") {
    test::VulkanFixture vulkan;
    // Three grid points of one kernel; the executor may keep two of them built.
    const Problem problem = testing::parse(testing::saxpy_json());
    REQUIRE(problem.candidates.size() == 3);
    const KeyPlan plan = plan_key(problem, problem.keys.front().key, nullptr);
    REQUIRE(plan.runnable.size() == 3);
    DeviceExecutor executor(problem, vulkan.device(), {}, 2);

    const auto first = executor.run(plan.runnable[0], plan);
    REQUIRE(first);
    CHECK(executor.prepared_candidates() == 1);
    REQUIRE(executor.run(plan.runnable[1], plan));
    REQUIRE(executor.measure(plan.runnable[1], plan, 1));
    CHECK(executor.prepared_candidates() == 2);
    // A third candidate frees the first (least recently used), whose pipeline a 65,536-point
    // grid would otherwise keep until the end of the run.
    REQUIRE(executor.prepare(plan.runnable[2]));
    CHECK(executor.prepared_candidates() == 2);

    // The freed one is rebuilt when it is needed again, and computes what it did.
    const auto again = executor.run(plan.runnable[0], plan);
    REQUIRE(again);
    CHECK(again.value().buffers == first.value().buffers);
    CHECK(executor.prepared_candidates() == 2);
}

TEST_CASE("by default the device executor keeps every candidate of a small problem built") {
    test::VulkanFixture vulkan;
    const Problem problem = testing::parse(testing::saxpy_json());
    const KeyPlan plan = plan_key(problem, problem.keys.front().key, nullptr);
    DeviceExecutor executor(problem, vulkan.device());
    for (const ResolvedCandidate& candidate : plan.runnable) {
        REQUIRE(executor.prepare(candidate));
    }
    CHECK(executor.prepared_candidates() == 3);
}

TEST_CASE("a candidate timed before any checked run is watched for writes past its buffers") {
    // A search reads a point before it checks it, and never checks one far behind: its timed
    // runs must not leave a write past a buffer for the next candidate's check to be blamed for.
    test::VulkanFixture vulkan;
    testing::Json json = testing::saxpy_json();
    json["keys"] = testing::Json::parse(R"({"list": [{"n": 1000}]})");
    json["candidates"][0].erase("grid");
    json["candidates"][0]["specialization"] = testing::Json::parse(R"({"0": 64})");
    json["candidates"][0]["workgroups"][0] = "ceil_div(n, 64)";
    testing::Json overrun = json["candidates"][0];
    overrun["name"] = "overrun";
    // 22 invocations past the 1000 elements of x and y, each writing y.
    overrun["push_constants"][1]["value"] = "n + 22";
    overrun["workgroups"][0] = "ceil_div(n + 22, 64)";
    json["candidates"].push_back(overrun);
    json["reference"]["candidate"] = "saxpy";
    const Problem problem = testing::parse(json);
    const KeyPlan plan = plan_key(problem, problem.keys.front().key, nullptr);
    REQUIRE(plan.runnable.size() == 2);
    const ResolvedCandidate& good = plan.runnable[0];
    const ResolvedCandidate& bad = plan.runnable[1];
    REQUIRE(problem.candidates[bad.candidate].name == "overrun");

    for (const std::uint32_t runs : {own_batch, 3U}) {
        CAPTURE(runs);
        DeviceExecutor executor(problem, vulkan.device());
        const auto timed = executor.measure(bad, plan, runs);
        REQUIRE_FALSE(timed);
        CHECK_MESSAGE(testing::contains(timed.error(), "wrote past the end of 'y': 22 elements"),
                      timed.error());
        // The guard zone was restored: the next candidate's checked run is not blamed.
        const auto checked = executor.run(good, plan);
        REQUIRE(checked);
        CHECK(checked.value().violations.empty());
        // The checked run timed itself: one run, as a sample would be.
        REQUIRE(checked.value().reading);
        CHECK(checked.value().reading->ns_per_run > 0);
        CHECK(checked.value().reading->runs == 1);
        CHECK(checked.value().reading->method == spvtune::tune::TimingMethod::device_timestamps);
        CHECK(executor.measure(good, plan, runs));
    }
    // Several samples in one submission are watched the same way.
    DeviceExecutor executor(problem, vulkan.device());
    const auto taken = executor.measure_samples(bad, plan, 2, 3);
    REQUIRE_FALSE(taken);
    CHECK_MESSAGE(testing::contains(taken.error(), "wrote past the end of 'y'"), taken.error());
}

}  // namespace device_executor_test
