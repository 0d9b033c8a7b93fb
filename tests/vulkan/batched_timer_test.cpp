#include <doctest/doctest.h>

#include <spvtune/vulkan/batched_timer.hpp>

#include "saxpy_job.hpp"
#include "vulkan_fixture.hpp"

using namespace spvtune;

TEST_CASE("the batch size spans the window, within 1 and the maximum") {
    const vulkan::BatchPolicy policy{std::chrono::microseconds(500), 100};
    CHECK(vulkan::batch_size(100'000, policy) == 5);
    CHECK(vulkan::batch_size(120'000, policy) == 5);  // rounds up: 4 would fall short
    CHECK(vulkan::batch_size(2'000'000, policy) == 1);
    CHECK(vulkan::batch_size(1, policy) == 100);
    CHECK(vulkan::batch_size(0, policy) == 100);  // an unmeasurably short kernel
}

TEST_CASE("batched samples report one dispatch's device time") {
    test::VulkanFixture vulkan;
    test::SaxpyJob saxpy(vulkan.device(), 1024, 64);
    vulkan::BatchedTimer timer({std::chrono::microseconds(500), 4096});
    const vulkan::DispatchTiming first = timer.sample(saxpy.job());
    const std::uint32_t batch = timer.batch();
    CHECK(batch >= 1);
    CHECK(batch <= 4096);
    CHECK(first.per_dispatch_ns > 0);
    const vulkan::DispatchTiming second = timer.sample(saxpy.job());
    CHECK(timer.batch() == batch);  // calibrated once
    CHECK(second.per_dispatch_ns > 0);
    CHECK(second.method == vulkan::TimingMethod::device_timestamps);
}

TEST_CASE("the batch never exceeds the policy's maximum") {
    test::VulkanFixture vulkan;
    test::SaxpyJob saxpy(vulkan.device(), 64, 64);
    vulkan::BatchedTimer timer({std::chrono::seconds(10), 3});
    timer.sample(saxpy.job());
    CHECK(timer.batch() == 3);
}
