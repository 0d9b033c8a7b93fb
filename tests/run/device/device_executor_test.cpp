// DeviceExecutor on lavapipe: what it keeps built between calls, and what it watches.
#include <cstddef>
#include <memory>
#include <string>

#include <doctest/doctest.h>

#include <spvtune/run/device_executor.hpp>
#include <spvtune/run/key_plan.hpp>
#include <spvtune/run/output_check.hpp>

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

namespace {

/// saxpy_json at n = 1000 with one saxpy candidate (the reference) and "overrun", which runs 22
/// invocations past the 1000 elements of x and y, each writing y.
testing::Json saxpy_and_overrun() {
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
    return json;
}

/// A problem planned for its first key, with its two runnable candidates: `good` (the first, the
/// reference) and `bad` (overrun).
struct GoodAndOverrun {
    explicit GoodAndOverrun(const testing::Json& json)
        : problem(testing::parse(json)),
          plan(plan_key(problem, problem.keys.front().key, nullptr)),
          good(plan.runnable.at(0)),
          bad(plan.runnable.at(1)) {
        REQUIRE(plan.runnable.size() == 2);
        REQUIRE(problem.candidates[bad.candidate].name == "overrun");
    }

    Problem problem;
    KeyPlan plan;
    const ResolvedCandidate& good;
    const ResolvedCandidate& bad;
};

}  // namespace

TEST_CASE("a candidate timed before any checked run is watched for writes past its buffers") {
    // A search reads a point before it checks it, and never checks one far behind: its timed
    // runs must not leave a write past a buffer for the next candidate's check to be blamed for.
    test::VulkanFixture vulkan;
    const GoodAndOverrun planned(saxpy_and_overrun());
    const auto& [problem, plan, good, bad] = planned;

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

TEST_CASE("a checked run whose outputs hold the reference's bytes gives the verdict, not them") {
    test::VulkanFixture vulkan;
    const GoodAndOverrun planned(saxpy_and_overrun());
    const auto& [problem, plan, good, bad] = planned;
    DeviceExecutor executor(problem, vulkan.device());
    const auto ran = executor.run(good, plan);
    REQUIRE(ran);
    REQUIRE(ran.value().buffers.size() == 1);
    const auto reference = std::make_shared<const CandidateOutputs>(ran.value());

    // The same kernel again: its outputs are judged where they lie, and none is read back.
    const auto same = executor.run_checked(good, plan, reference);
    REQUIRE(same);
    REQUIRE(same.value().verdict);
    CHECK(same.value().verdict->reference == reference);
    CHECK_FALSE(same.value().verdict->mismatch);
    CHECK(same.value().buffers.empty());
    CHECK(same.value().reading);
    CHECK_FALSE(compare_outputs(problem, *reference, same.value()));

    // Against outputs one element apart, the buffers come back and the comparison names it.
    CandidateOutputs other = *reference;
    other.buffers[0][4 * 17 + 3] ^= std::byte{0x20};  // an exponent bit of y[17]
    const auto differs =
        executor.run_checked(good, plan, std::make_shared<const CandidateOutputs>(other));
    REQUIRE(differs);
    CHECK_FALSE(differs.value().verdict);
    CHECK(differs.value().buffers == reference->buffers);
    const auto mismatch = compare_outputs(problem, other, differs.value());
    REQUIRE(mismatch);
    CHECK_MESSAGE(testing::contains(*mismatch, "1 of 1000 elements of y differ, at 17"), *mismatch);

    // Right values, but written past the end of y: no verdict of a match, the buffers it held,
    // and the comparison rejects it for the overrun.
    const auto overran = executor.run_checked(bad, plan, reference);
    REQUIRE(overran);
    CHECK_FALSE(overran.value().verdict);
    CHECK(overran.value().buffers == reference->buffers);
    const auto rejected = compare_outputs(problem, *reference, overran.value());
    REQUIRE(rejected);
    CHECK_MESSAGE(testing::contains(*rejected, "wrote past the end of 'y': 22 elements"),
                  *rejected);
    // The guard zone was restored: the next check of a good run is a match again.
    const auto after = executor.run_checked(good, plan, reference);
    REQUIRE(after);
    CHECK(after.value().verdict);
}

TEST_CASE("a checked run of a comparison's range is judged over that range where it lies") {
    // The reference's bytes past the range are zeros (keep_checked_range), the device's are not.
    test::VulkanFixture vulkan;
    testing::Json json = saxpy_and_overrun();
    json["reference"]["compare"]["y"]["range"] = testing::Json::parse(R"([100, 600])");
    const GoodAndOverrun planned(json);
    const auto& [problem, plan, good, bad] = planned;
    DeviceExecutor executor(problem, vulkan.device());
    const auto ran = executor.run(good, plan);
    REQUIRE(ran);
    const auto reference = std::make_shared<const CandidateOutputs>(ran.value());
    const auto same = executor.run_checked(good, plan, reference);
    REQUIRE(same);
    REQUIRE(same.value().verdict);
    CHECK(same.value().buffers.empty());

    // A reference one element apart at either end of the range, or just outside it (where
    // keep_checked_range would have left a zero), is never matched in place: the outputs are
    // read back, and the comparison finds the element, as it did before any look in place.
    for (const std::size_t element :
         {std::size_t{99}, std::size_t{100}, std::size_t{599}, std::size_t{600}}) {
        CAPTURE(element);
        CandidateOutputs other = *reference;
        other.buffers[0][4 * element + 3] ^= std::byte{0x20};
        const auto checked =
            executor.run_checked(good, plan, std::make_shared<const CandidateOutputs>(other));
        REQUIRE(checked);
        CHECK_FALSE(checked.value().verdict);
        const auto mismatch = compare_outputs(problem, other, checked.value());
        REQUIRE(mismatch);
        CHECK_MESSAGE(testing::contains(*mismatch, "differ, at " + std::to_string(element)),
                      *mismatch);
    }
}

TEST_CASE("a checked run never matches a reference that holds NaN, even byte for byte") {
    // NaN matches nothing: the reference kernel run again gives the same NaN bytes at d[3..7],
    // and they are read back and compared rather than judged equal where they lie.
    test::VulkanFixture vulkan;
    const testing::Json json = testing::Json::parse(R"json({
        "name": "nan-reference",
        "parameters": {"n": {"type": "int"}},
        "keys": {"list": [{"n": 64}]},
        "buffers": {
            "s": {"type": "f32", "count": "n", "role": "input",
                  "init": {"random": {"seed": 5, "min": -1, "max": 1}}},
            "d": {"type": "f32", "count": "n", "role": "output"}
        },
        "candidates": [{
            "name": "ref", "glsl": "",
            "specialization": {"0": 1, "NAN_FROM": 3, "NAN_TO": 8},
            "workgroups": [1, 1, 1], "push_constants": [{"type": "u32", "value": "n"}],
            "bindings": {"0": "s", "1": "d"}
        }],
        "reference": {"candidate": "ref", "compare": {"d": {"rtol": 1e-6}}}
    })json");
    testing::Json with_source = json;
    with_source["candidates"][0]["glsl"] =
        (testing::config_dir / ".." / "tests" / "cli" / "kernels" / "nan_reference.comp").string();
    const Problem problem = testing::parse(with_source);
    const KeyPlan plan = plan_key(problem, problem.keys.front().key, nullptr);
    REQUIRE(plan.runnable.size() == 1);
    DeviceExecutor executor(problem, vulkan.device());
    const auto ran = executor.run(plan.runnable[0], plan);
    REQUIRE(ran);
    const auto reference = std::make_shared<const CandidateOutputs>(ran.value());
    REQUIRE_FALSE(identical_outputs_match(problem, *reference));

    const auto again = executor.run_checked(plan.runnable[0], plan, reference);
    REQUIRE(again);
    CHECK_FALSE(again.value().verdict);
    CHECK(again.value().buffers == reference->buffers);
    const auto mismatch = compare_outputs(problem, *reference, again.value());
    REQUIRE(mismatch);
    CHECK_MESSAGE(testing::contains(*mismatch, "5 of 64 elements of d differ, at 3, 4, 5, 6, 7"),
                  *mismatch);
}

}  // namespace device_executor_test
