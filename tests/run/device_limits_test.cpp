#include <doctest/doctest.h>

#include <spvtune/run/device_limits.hpp>
#include <spvtune/run/key_plan.hpp>

#include "problem/problem_test_support.hpp"

namespace device_limits_test {

using namespace spvtune::problem;
using namespace spvtune::run;
using namespace spvtune::problem::testing;

namespace {

DeviceLimits small_device() {
    DeviceLimits limits;
    limits.device_name = "Tiny GPU";
    limits.max_workgroup_count = {65535, 65535, 65535};
    limits.max_workgroup_size = {1024, 1024, 64};
    limits.max_workgroup_invocations = 1024;
    limits.max_push_constants_size = 128;
    limits.max_storage_buffer_range = 1U << 20;
    limits.max_uniform_buffer_range = 1U << 16;
    limits.max_memory_allocation_size = 1U << 21;
    limits.device_memory = 1U << 22;
    return limits;
}

ResolvedCandidate candidate_with(std::array<std::uint32_t, 3> size,
                                 std::array<std::uint32_t, 3> counts) {
    ResolvedCandidate candidate;
    candidate.name = "c";
    ResolvedDispatch dispatch;
    dispatch.workgroup_size = size;
    dispatch.workgroup_counts = counts;
    dispatch.bindings = {{0, 0, 0, spvtune::vulkan::DescriptorType::storage_buffer}};
    candidate.dispatches = {dispatch};
    return candidate;
}

std::vector<ResolvedBuffer> one_buffer(std::uint64_t bytes, BufferRole role = BufferRole::input) {
    return {{"x",
             spvtune::vulkan::ElementType::u8,
             bytes,
             bytes,
             spvtune::vulkan::FillZeros{},
             role,
             {0, bytes}}};
}

std::string failure(const ResolvedCandidate& candidate,
                    const std::vector<ResolvedBuffer>& buffers) {
    const auto status = check_device_limits(candidate, buffers, small_device());
    return status ? "fits" : status.error();
}

}  // namespace

TEST_CASE("workgroup counts fit up to the limit of each axis and fail one above it") {
    const auto buffers = one_buffer(16);
    CHECK(failure(candidate_with({64, 1, 1}, {65535, 65535, 65535}), buffers) == "fits");
    CHECK(failure(candidate_with({64, 1, 1}, {65536, 1, 1}), buffers) ==
          "workgroup count x = 65536 exceeds maxComputeWorkGroupCount[0] = 65535 of Tiny GPU");
    CHECK(failure(candidate_with({64, 1, 1}, {1, 65536, 1}), buffers) ==
          "workgroup count y = 65536 exceeds maxComputeWorkGroupCount[1] = 65535 of Tiny GPU");
    CHECK(failure(candidate_with({64, 1, 1}, {1, 1, 65536}), buffers) ==
          "workgroup count z = 65536 exceeds maxComputeWorkGroupCount[2] = 65535 of Tiny GPU");
}

TEST_CASE("workgroup sizes fit up to the limit of each axis and fail one above it") {
    const auto buffers = one_buffer(16);
    CHECK(failure(candidate_with({1024, 1, 1}, {1, 1, 1}), buffers) == "fits");
    CHECK(failure(candidate_with({1, 1024, 1}, {1, 1, 1}), buffers) == "fits");
    CHECK(failure(candidate_with({1, 1, 64}, {1, 1, 1}), buffers) == "fits");
    CHECK(failure(candidate_with({1025, 1, 1}, {1, 1, 1}), buffers) ==
          "workgroup size x = 1025 exceeds maxComputeWorkGroupSize[0] = 1024 of Tiny GPU");
    CHECK(failure(candidate_with({1, 1025, 1}, {1, 1, 1}), buffers) ==
          "workgroup size y = 1025 exceeds maxComputeWorkGroupSize[1] = 1024 of Tiny GPU");
    CHECK(failure(candidate_with({1, 1, 65}, {1, 1, 1}), buffers) ==
          "workgroup size z = 65 exceeds maxComputeWorkGroupSize[2] = 64 of Tiny GPU");
}

TEST_CASE("invocations fit up to maxComputeWorkGroupInvocations and fail one above it") {
    const auto buffers = one_buffer(16);
    CHECK(failure(candidate_with({32, 32, 1}, {1, 1, 1}), buffers) == "fits");
    CHECK(failure(candidate_with({16, 8, 8}, {1, 1, 1}), buffers) == "fits");
    CHECK(failure(candidate_with({41, 25, 1}, {1, 1, 1}), buffers) ==
          "workgroup size 41x25x1 = 1025 invocations exceeds maxComputeWorkGroupInvocations = "
          "1024 of Tiny GPU");
    CHECK(failure(candidate_with({64, 32, 1}, {1, 1, 1}), buffers) ==
          "workgroup size 64x32x1 = 2048 invocations exceeds maxComputeWorkGroupInvocations = "
          "1024 of Tiny GPU");
}

TEST_CASE("buffer sizes are checked against ranges, the largest allocation and the heap") {
    const auto candidate = candidate_with({64, 1, 1}, {1, 1, 1});
    CHECK(failure(candidate, one_buffer(1U << 20)) == "fits");
    CHECK(failure(candidate, one_buffer((1U << 20) + 1)) ==
          "buffer 'x' is 1048577 bytes, which exceeds maxStorageBufferRange = 1048576 of Tiny GPU");
    auto uniform = candidate;
    uniform.dispatches[0].bindings[0].type = spvtune::vulkan::DescriptorType::uniform_buffer;
    CHECK(failure(uniform, one_buffer(1U << 16)) == "fits");
    CHECK(failure(uniform, one_buffer((1U << 16) + 1)) ==
          "buffer 'x' is 65537 bytes, which exceeds maxUniformBufferRange = 65536 of Tiny GPU");
    auto unbound = candidate;
    unbound.dispatches[0].bindings.clear();
    CHECK(failure(unbound, one_buffer(1U << 21)) == "fits");
    CHECK(failure(unbound, one_buffer((1U << 21) + 1)) ==
          "buffer 'x' is 2097153 bytes, which exceeds maxMemoryAllocationSize = 2097152 of Tiny "
          "GPU");
    // Checked buffers count twice: the candidates write their own copies.
    std::vector<ResolvedBuffer> buffers;
    for (int i = 0; i < 2; ++i) {
        auto buffer = one_buffer(1U << 20, BufferRole::output)[0];
        buffer.name = "out" + std::to_string(i);
        buffers.push_back(buffer);
    }
    CHECK(device_bytes_needed(buffers) == 4U << 20);
    CHECK(failure(unbound, buffers) == "fits");
    buffers.push_back(one_buffer(1)[0]);
    CHECK(failure(unbound, buffers) ==
          "the buffers need 4194305 bytes of device memory (outputs twice), more than the "
          "4194304-byte device-local heap of Tiny GPU");
}

TEST_CASE("a key plan lists runnable and skipped candidates, and fails when none can run") {
    Json json = saxpy_json();
    json["keys"]["list"] = Json::parse(R"([{"n": 4096}, {"n": 100000000}])");
    const Problem problem = parse(json);
    const DeviceLimits limits = small_device();
    const KeyPlan small = plan_key(problem, problem.keys[0].key, &limits);
    CHECK_FALSE(small.error);
    CHECK(small.runnable.size() == 3);
    REQUIRE(small.reference);
    CHECK(small.runnable[*small.reference].name == "saxpy[WG=64]");
    CHECK(to_string(small.tuning_key) == "n=4096");

    const KeyPlan huge = plan_key(problem, problem.keys[1].key, &limits);
    REQUIRE(huge.error);
    CHECK(huge.runnable.empty());
    CHECK_FALSE(huge.runs_unchecked);
    REQUIRE(huge.skipped.size() == 3);
    CHECK(contains(*huge.error,
                   "no candidate can run this key:\n    saxpy[WG=32]: workgroup "
                   "count x = 3125000 exceeds maxComputeWorkGroupCount[0]"));
    // Without limits everything resolves.
    CHECK(plan_key(problem, problem.keys[1].key, nullptr).runnable.size() == 3);
}

TEST_CASE("a key whose reference candidate cannot run is an error even when others can") {
    Json json = saxpy_json();
    json["candidates"][0]["grid"]["WG"] = Json::array({64, 2048});
    const Problem problem = parse(json);
    const DeviceLimits limits = small_device();
    json["reference"]["candidate"] = "saxpy[WG=2048]";
    const Problem bad_reference = parse(json);
    CHECK_FALSE(plan_key(problem, problem.keys[0].key, &limits).error);
    const KeyPlan plan = plan_key(bad_reference, bad_reference.keys[0].key, &limits);
    REQUIRE(plan.error);
    CHECK(*plan.error ==
          "the reference candidate saxpy[WG=2048] cannot run this key, so outputs "
          "cannot be checked: workgroup size x = 2048 exceeds "
          "maxComputeWorkGroupSize[0] = 1024 of Tiny GPU");
    CHECK(plan.runnable.size() == 1);
    // Only the checks are missing: what runs without measuring can still run the key.
    CHECK(plan.runs_unchecked);
}

TEST_CASE("with several reference candidates, a key's truth is the first that can run it") {
    Json json = saxpy_json();
    json["candidates"][0]["grid"]["WG"] = Json::array({64, 2048, 4096});
    json["reference"]["candidate"] = Json::array({"saxpy[WG=2048]", "saxpy[WG=64]"});
    const DeviceLimits limits = small_device();
    const Problem problem = parse(json);
    const KeyPlan plan = plan_key(problem, problem.keys[0].key, &limits);
    CHECK_FALSE(plan.error);
    REQUIRE(plan.reference);
    CHECK(plan.runnable[*plan.reference].name == "saxpy[WG=64]");
    // Without limits the first in the list runs, so it is the truth.
    const KeyPlan unlimited = plan_key(problem, problem.keys[0].key, nullptr);
    REQUIRE(unlimited.reference);
    CHECK(unlimited.runnable[*unlimited.reference].name == "saxpy[WG=2048]");

    json["reference"]["candidate"] = Json::array({"saxpy[WG=4096]", "saxpy[WG=2048]"});
    const Problem none_runs = parse(json);
    const KeyPlan failed = plan_key(none_runs, none_runs.keys[0].key, &limits);
    REQUIRE(failed.error);
    CHECK(*failed.error ==
          "none of the reference candidates can run this key, so outputs cannot be checked:\n"
          "    saxpy[WG=4096]: workgroup size x = 4096 exceeds maxComputeWorkGroupSize[0] = 1024 "
          "of Tiny GPU\n"
          "    saxpy[WG=2048]: workgroup size x = 2048 exceeds maxComputeWorkGroupSize[0] = 1024 "
          "of Tiny GPU");
}

TEST_CASE("a candidate that needs a capability the device lacks is skipped with that reason") {
    DeviceLimits limits = small_device();
    limits.capabilities = {"subgroup_basic", "int64"};
    ResolvedCandidate candidate = candidate_with({64, 1, 1}, {1, 1, 1});
    candidate.required_capabilities = {"subgroup_basic"};
    CHECK(check_device_limits(candidate, one_buffer(64), limits).has_value());
    candidate.required_capabilities = {"subgroup_basic", "subgroup_arithmetic"};
    const auto status = check_device_limits(candidate, one_buffer(64), limits);
    REQUIRE_FALSE(status.has_value());
    CHECK(status.error() == "needs subgroup_arithmetic, which Tiny GPU lacks");
}

TEST_CASE("a key whose buffers do not fit the host's memory fails once, not per candidate") {
    Json json = saxpy_json();
    json["keys"]["list"] = Json::parse(R"([{"n": 4096}, {"n": 1000000}])");
    const Problem problem = parse(json);
    DeviceLimits limits = small_device();
    limits.max_storage_buffer_range = 1U << 30;
    limits.max_memory_allocation_size = 1U << 30;
    limits.device_memory = 1U << 31;
    limits.host_memory = 1U << 20;
    // n = 4096: x 16 KiB once, y (inout, checked) 16 KiB four times = 80 KiB.
    CHECK(host_bytes_needed(plan_key(problem, problem.keys[0].key, nullptr).buffers) == 81920);
    CHECK_FALSE(plan_key(problem, problem.keys[0].key, &limits).error);

    const KeyPlan plan = plan_key(problem, problem.keys[1].key, &limits);
    REQUIRE(plan.error);
    CHECK(*plan.error ==
          "the buffers need 20000000 bytes of host memory (initial contents, and each checked "
          "buffer three more times for the checks), more than the 1048576 bytes available");
    CHECK(plan.skipped.empty());
    CHECK_FALSE(plan.runs_unchecked);
}

}  // namespace device_limits_test
