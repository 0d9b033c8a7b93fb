// Pipelines built ahead on build threads: each once, handed to the measuring call, a failing
// build reported as its candidate's error, and memory bounded as without them.
#include <cstddef>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/run/device_executor.hpp>
#include <spvtune/run/key_plan.hpp>

#include "problem/problem_test_support.hpp"
#include "vulkan/vulkan_fixture.hpp"

namespace pipeline_build_ahead_test {

using namespace spvtune;
using namespace spvtune::problem;
using namespace spvtune::run;

namespace {

/// saxpy over a grid of workgroup sizes; 4096 is beyond every device's limit, so its pipeline
/// cannot be built (the plan is made without limits, as if the device had none).
Problem saxpy_grid(std::vector<int> sizes) {
    auto json = testing::saxpy_json();
    json["candidates"][0]["grid"]["WG"] = sizes;
    return testing::parse(json);
}

std::vector<std::size_t> indices(const KeyPlan& plan) {
    std::vector<std::size_t> list;
    for (const ResolvedCandidate& candidate : plan.runnable) {
        list.push_back(candidate.candidate);
    }
    return list;
}

}  // namespace

TEST_CASE("prefetched pipelines are built once each and used by the calls that need them") {
    test::VulkanFixture vulkan;
    const Problem problem = saxpy_grid({16, 32, 64, 128, 256});
    const KeyPlan plan = plan_key(problem, problem.keys.front().key, nullptr);
    REQUIRE(plan.runnable.size() == 5);
    DeviceExecutor inline_executor(problem, vulkan.device());
    DeviceExecutor executor(problem, vulkan.device(), {}, default_max_prepared_candidates,
                            {nullptr, 2});
    executor.prefetch(plan, indices(plan));
    for (const ResolvedCandidate& candidate : plan.runnable) {
        const auto ahead = executor.run(candidate, plan);
        const auto now = inline_executor.run(candidate, plan);
        REQUIRE(ahead);
        REQUIRE(now);
        CHECK(ahead.value().buffers == now.value().buffers);
        REQUIRE(executor.measure(candidate, plan, 1));
    }
    // One pipeline per candidate: none built twice, none left over.
    CHECK(executor.pipelines_built() == 5);
    CHECK(executor.built_ahead() == 0);
    CHECK(executor.prepared_candidates() == 5);
}

TEST_CASE("a pipeline that fails to build ahead is its candidate's error, and the others run") {
    test::VulkanFixture vulkan;
    const Problem problem = saxpy_grid({32, 4096, 64});
    const KeyPlan plan = plan_key(problem, problem.keys.front().key, nullptr);
    REQUIRE(plan.runnable.size() == 3);
    DeviceExecutor executor(problem, vulkan.device(), {}, default_max_prepared_candidates,
                            {nullptr, 2});
    executor.prefetch(plan, indices(plan));
    CHECK(executor.run(plan.runnable[0], plan));
    const auto failed = executor.run(plan.runnable[1], plan);
    REQUIRE_FALSE(failed);
    CHECK(failed.error().find("maxComputeWorkGroupSize") != std::string::npos);
    CHECK(executor.run(plan.runnable[2], plan));
    CHECK_FALSE(executor.device_lost());
}

TEST_CASE("pipelines built ahead respect the cap on prepared candidates") {
    test::VulkanFixture vulkan;
    const Problem problem = saxpy_grid({8, 16, 32, 64, 128, 256});
    const KeyPlan plan = plan_key(problem, problem.keys.front().key, nullptr);
    REQUIRE(plan.runnable.size() == 6);
    DeviceExecutor executor(problem, vulkan.device(), {}, 2, {nullptr, 2});
    executor.prefetch(plan, indices(plan));
    for (const ResolvedCandidate& candidate : plan.runnable) {
        REQUIRE(executor.run(candidate, plan));
        CHECK(executor.prepared_candidates() <= 2);
        CHECK(executor.built_ahead() <= 2);  // the lookahead is capped by the cap too
    }
    CHECK(executor.pipelines_built() == 6);

    // Announced anew (the next key): what was built ahead for the old list and is not in the new
    // one is freed; candidates skipped over are freed too.
    executor.prefetch(plan, indices(plan));
    REQUIRE(executor.run(plan.runnable[5], plan));  // still held: not rebuilt
    REQUIRE(executor.run(plan.runnable[3], plan));
    CHECK(executor.built_ahead() <= 2);
    executor.prefetch(plan, {});
    CHECK(executor.built_ahead() == 0);
}

}  // namespace pipeline_build_ahead_test
