// DeviceExecutor on lavapipe: what it keeps built between calls.
#include <cstddef>

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

}  // namespace device_executor_test
