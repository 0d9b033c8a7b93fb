// Candidates that compile the same code (copies of one kernel under other names or files) run one
// pipeline: on a CPU driver, where each compile places its machine code anew, a pipeline of
// their own made identical kernels read several percent apart.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/run/device_executor.hpp>
#include <spvtune/run/key_plan.hpp>

#include "problem/problem_test_support.hpp"
#include "temp_directory.hpp"
#include "vulkan/vulkan_fixture.hpp"

namespace identical_pipelines_test {

using namespace spvtune;
using namespace spvtune::problem;
using namespace spvtune::run;

namespace {

/// A saxpy candidate of workgroup size `wg` from `file`.
testing::Json saxpy_candidate(const std::string& name, const std::string& file, int wg) {
    auto candidate = testing::saxpy_json()["candidates"][0];
    candidate.erase("grid");
    candidate["name"] = name;
    candidate["spirv"] = file;
    candidate["specialization"] = {{"0", wg}};
    candidate["workgroups"] = {"ceil_div(n, " + std::to_string(wg) + ")", 1, 1};
    return candidate;
}

/// `candidates` over saxpy's buffers; the test kernels and `more_kernels` (if any) are searched.
Problem saxpy_problem(const std::vector<testing::Json>& candidates,
                      const std::optional<std::filesystem::path>& more_kernels = std::nullopt) {
    auto json = testing::saxpy_json();
    json["candidates"] = candidates;
    json["reference"]["candidate"] = candidates.front()["name"];
    LoadOptions options = testing::test_options();
    if (more_kernels) {
        options.kernel_dirs.push_back(*more_kernels);
    }
    return parse_problem(json.dump(), testing::problem_file, options);
}

/// first and copy (the same kernel and workgroup size), and other_size (another size).
Problem two_copies_and_another() {
    return saxpy_problem({saxpy_candidate("first", "saxpy.spv", 64),
                          saxpy_candidate("copy", "saxpy.spv", 64),
                          saxpy_candidate("other_size", "saxpy.spv", 128)});
}

const ResolvedCandidate& named(const KeyPlan& plan, const Problem& problem,
                               const std::string& name) {
    for (const ResolvedCandidate& candidate : plan.runnable) {
        if (problem.candidates.at(candidate.candidate).name == name) {
            return candidate;
        }
    }
    FAIL("no runnable candidate " << name);
    return plan.runnable.front();
}

}  // namespace

TEST_CASE("candidates that compile the same code share one pipeline, and only they do") {
    test::VulkanFixture vulkan;
    tune::testing::TempDirectory elsewhere;
    std::filesystem::copy_file(std::filesystem::path(SPVTUNE_KERNEL_DIR) / "saxpy.spv",
                               elsewhere.path() / "saxpy_copy.spv");
    const Problem problem = saxpy_problem(
        {saxpy_candidate("first", "saxpy.spv", 64), saxpy_candidate("copy", "saxpy.spv", 64),
         saxpy_candidate("other_file", "saxpy_copy.spv", 64),
         saxpy_candidate("other_size", "saxpy.spv", 128)},
        elsewhere.path());
    const KeyPlan plan = plan_key(problem, problem.keys.front().key, nullptr);
    REQUIRE(plan.runnable.size() == 4);

    DeviceExecutor executor(problem, vulkan.device());
    const auto reference = executor.run(named(plan, problem, "first"), plan);
    REQUIRE(reference);
    for (const std::string name : {"copy", "other_file", "other_size"}) {
        CAPTURE(name);
        const auto outputs = executor.run(named(plan, problem, name), plan);
        REQUIRE(outputs);
        CHECK(outputs.value().buffers == reference.value().buffers);
        REQUIRE(executor.measure(named(plan, problem, name), plan, 1));
    }
    // One for the three identical candidates (the same bytes from another file count), one for
    // the other specialization.
    CHECK(executor.pipelines_built() == 2);
    CHECK(executor.prepared_candidates() == 4);
}

TEST_CASE("a shared pipeline outlives the candidate that built it while another still uses it") {
    test::VulkanFixture vulkan;
    const Problem problem = two_copies_and_another();
    const KeyPlan plan = plan_key(problem, problem.keys.front().key, nullptr);
    REQUIRE(plan.runnable.size() == 3);

    // Two kept: other_size frees first (copy still holds their pipeline), and first, back, frees
    // other_size and finds the pipeline in copy.
    DeviceExecutor executor(problem, vulkan.device(), {}, 2);
    for (const std::string name : {"first", "copy", "other_size", "copy", "first"}) {
        CAPTURE(name);
        REQUIRE(executor.measure(named(plan, problem, name), plan, 1));
        REQUIRE(executor.run(named(plan, problem, name), plan));
    }
    CHECK(executor.prepared_candidates() == 2);
    // Only other_size's was built besides the one first built.
    CHECK(executor.pipelines_built() == 2);
}

TEST_CASE("identical candidates announced ahead are built once, on the build threads") {
    test::VulkanFixture vulkan;
    const Problem problem = two_copies_and_another();
    const KeyPlan plan = plan_key(problem, problem.keys.front().key, nullptr);
    REQUIRE(plan.runnable.size() == 3);

    DeviceExecutor executor(problem, vulkan.device(), {}, default_max_prepared_candidates,
                            {nullptr, 2});
    std::vector<std::size_t> all;
    for (const ResolvedCandidate& candidate : plan.runnable) {
        all.push_back(candidate.candidate);
    }
    executor.prefetch(plan, all);
    for (const ResolvedCandidate& candidate : plan.runnable) {
        REQUIRE(executor.run(candidate, plan));
    }
    CHECK(executor.pipelines_built() == 2);
    CHECK(executor.built_ahead() == 0);
}

TEST_CASE("the steps of one candidate that compile the same code share one pipeline") {
    test::VulkanFixture vulkan;
    // saxpy twice over: y = a x + y, then again on that y.
    testing::Json step = saxpy_candidate("step", "saxpy.spv", 64);
    step.erase("name");
    const testing::Json twice{{"name", "twice"}, {"steps", {step, step}}};
    const Problem problem = saxpy_problem({saxpy_candidate("once", "saxpy.spv", 64), twice});
    const KeyPlan plan = plan_key(problem, problem.keys.front().key, nullptr);
    REQUIRE(plan.runnable.size() == 2);

    // One candidate kept: each run frees the other's pipelines, and the two steps' one pipeline.
    DeviceExecutor executor(problem, vulkan.device(), {}, 1);
    const auto once = executor.run(named(plan, problem, "once"), plan);
    REQUIRE(once);
    const auto both = executor.run(named(plan, problem, "twice"), plan);
    REQUIRE(both);
    CHECK(executor.pipelines_built() == 2);  // once's, then the steps' one, once's being freed
    CHECK(both.value().buffers != once.value().buffers);
    REQUIRE(executor.run(named(plan, problem, "once"), plan));
    CHECK(executor.pipelines_built() == 3);
}

}  // namespace identical_pipelines_test
