#include <doctest/doctest.h>

#include <spvtune/vulkan/batched_timer.hpp>
#include <spvtune/vulkan/tune_client.hpp>

#include "saxpy_job.hpp"
#include "vulkan_fixture.hpp"

using namespace spvtune;

TEST_CASE("a batched sample spans the minimum window and reports one dispatch's time") {
    test::VulkanFixture vulkan;
    test::SaxpyJob saxpy(vulkan.device(), 1024, 64);
    vulkan::BatchedTimer timer({std::chrono::microseconds(500), 4096});
    const tune::Sample first = timer.sample(saxpy.job());
    CHECK(timer.batch() >= 1);
    CHECK(first.ns_per_run > 0);
    const tune::Sample second = timer.sample(saxpy.job());
    CHECK(second.method == tune::TimingMethod::device_timestamps);
    // The batch is sized so that batch * per-dispatch time reaches the window (within noise).
    if (timer.batch() < 4096) {
        CHECK(second.ns_per_run * timer.batch() > 0.25 * 500'000);
    }
    MESSAGE("batch " << timer.batch() << ", " << second.ns_per_run << " ns per dispatch");
}

TEST_CASE("the batch never exceeds the policy's maximum") {
    test::VulkanFixture vulkan;
    test::SaxpyJob saxpy(vulkan.device(), 64, 64);
    vulkan::BatchedTimer timer({std::chrono::seconds(10), 3});
    timer.sample(saxpy.job());
    CHECK(timer.batch() == 3);
}

TEST_CASE("the Vulkan tune client reports the device's hardware identity") {
    test::VulkanFixture vulkan;
    const vulkan::TuneClient client(vulkan.device().info());
    const auto& identity = client.hardware_identity();
    CHECK(identity.key == vulkan.device().info().identity.key());
    CHECK(identity.vendor_id == vulkan.device().info().identity.vendor_id);
    CHECK(identity.record.at("device_name") == vulkan.device().info().identity.device_name);
}
