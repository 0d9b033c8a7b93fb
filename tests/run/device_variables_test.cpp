// `device.<name>` variables in a candidate's expressions, read per key from the device's
// properties (here a fake device's limits, so no device is needed).

#include <algorithm>
#include <cstring>

#include <doctest/doctest.h>

#include <spvtune/run/device_limits.hpp>
#include <spvtune/run/key_plan.hpp>

#include "problem/problem_test_support.hpp"

namespace device_variables_test {

using namespace spvtune::problem;
using namespace spvtune::run;
using namespace spvtune::problem::testing;

namespace {

DeviceLimits device_with_subgroups(std::uint32_t subgroup_size) {
    DeviceLimits limits;
    limits.device_name = "Fake GPU";
    limits.max_workgroup_count = {65535, 65535, 65535};
    limits.max_workgroup_size = {512, 512, 64};
    limits.max_workgroup_invocations = 256;
    limits.max_shared_memory = 32768;
    limits.subgroup_size = subgroup_size;
    limits.max_push_constants_size = 128;
    limits.max_storage_buffer_range = 1U << 30;
    limits.max_uniform_buffer_range = 1U << 16;
    limits.max_memory_allocation_size = 1U << 30;
    limits.device_memory = 1U << 30;
    return limits;
}

/// saxpy with a second candidate, "sub16", that assumes 16-lane subgroups and sizes its
/// workgroups from the device.
Problem saxpy_with_subgroup_kernel() {
    Json json = saxpy_json();
    Json sub16 = json["candidates"][0];
    sub16["name"] = "sub16";
    sub16.erase("grid");
    sub16["constraints"] = {"device.subgroup_size == 16"};
    sub16["specialization"] = {{"0", "min(device.max_workgroup_invocations, 1024)"}};
    sub16["workgroups"] = {"ceil_div(n, device.max_workgroup_invocations)", 1, 1};
    sub16["push_constants"][0]["value"] = "float(device.max_shared_memory) / 16384";
    json["candidates"].push_back(sub16);
    return parse(json);
}

const SkippedCandidate* skipped(const KeyPlan& plan, const std::string& name) {
    const auto found = std::find_if(plan.skipped.begin(), plan.skipped.end(),
                                    [&](const SkippedCandidate& s) { return s.name == name; });
    return found == plan.skipped.end() ? nullptr : &*found;
}

}  // namespace

TEST_CASE("a kernel that needs 16-lane subgroups is skipped with the reason on an 8-lane device") {
    const Problem problem = saxpy_with_subgroup_kernel();
    const DeviceLimits limits = device_with_subgroups(8);
    const KeyPlan plan = plan_key(problem, problem.keys.at(0).key, &limits);
    const SkippedCandidate* sub16 = skipped(plan, "sub16");
    REQUIRE(sub16 != nullptr);
    CHECK(sub16->reason ==
          "constraint 'device.subgroup_size == 16' is false for device.subgroup_size=8");
    CHECK(plan.runnable.size() == 3);  // the saxpy points, which assume nothing
}

TEST_CASE("specialization, workgroups and push constants read the device's properties") {
    const Problem problem = saxpy_with_subgroup_kernel();
    const DeviceLimits limits = device_with_subgroups(16);
    const KeyPlan plan = plan_key(problem, problem.keys.at(0).key, &limits);  // n = 1000
    const auto sub16 = std::find_if(plan.runnable.begin(), plan.runnable.end(),
                                    [](const ResolvedCandidate& c) { return c.name == "sub16"; });
    REQUIRE(sub16 != plan.runnable.end());
    const ResolvedDispatch& dispatch = sub16->dispatches.at(0);
    CHECK(dispatch.workgroup_size == std::array<std::uint32_t, 3>{256, 1, 1});
    CHECK(dispatch.workgroup_counts == std::array<std::uint32_t, 3>{4, 1, 1});
    float alpha = 0;
    std::memcpy(&alpha, dispatch.push_constants.data(), 4);
    CHECK(alpha == 2.0f);
}

TEST_CASE("without a device a candidate that reads a device property is skipped, saying why") {
    const Problem problem = saxpy_with_subgroup_kernel();
    const KeyPlan plan = plan_key(problem, problem.keys.at(0).key, nullptr);
    const SkippedCandidate* sub16 = skipped(plan, "sub16");
    REQUIRE(sub16 != nullptr);
    CHECK(sub16->reason ==
          "/candidates/1/constraints/0: 'device.subgroup_size == 16' uses "
          "device.subgroup_size, a property of the device, and no device is "
          "known here");
}

TEST_CASE("an unknown device property is an error at load, listing the known ones") {
    Json json = saxpy_json();
    json["candidates"][0]["constraints"] = {"device.warp_size == 32"};
    CHECK(contains(error_of(json),
                   "/candidates/0/constraints/0: bad expression: unknown device property "
                   "'device.warp_size'; the device properties are: device.max_shared_memory, "
                   "device.max_workgroup_invocations, device.max_workgroup_size, "
                   "device.max_workgroup_size_y, device.max_workgroup_size_z, "
                   "device.subgroup_size"));
}

TEST_CASE("a define may not read a device property: it is compiled before any device") {
    Json json = saxpy_json();
    Json& candidate = json["candidates"][0];
    candidate.erase("spirv");
    candidate["glsl"] = "saxpy.comp";
    candidate["defines"] = {{"LANES", "device.subgroup_size"}};
    CHECK(contains(error_of(json), "unknown device property 'device.subgroup_size'"));
}

}  // namespace device_variables_test
