#include <algorithm>
#include <cmath>

#include <doctest/doctest.h>

#include <spvtune/vulkan/error.hpp>

#include "saxpy_job.hpp"
#include "vulkan_fixture.hpp"

namespace compute_job_test {

using namespace spvtune;

namespace {

/// Element-by-element comparison; fma contraction on the device may differ in the last bit.
void check_close(const std::vector<float>& got, const std::vector<float>& want) {
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        const float tolerance = 1e-5f * std::max(1.0f, std::fabs(want[i]));
        if (std::fabs(got[i] - want[i]) > tolerance) {
            FAIL("element " << i << ": got " << got[i] << ", expected " << want[i]);
        }
    }
}

}  // namespace

TEST_CASE("saxpy runs through the engine and matches the host result element by element") {
    test::VulkanFixture vulkan;
    // 1000 is not a multiple of the workgroup size: the bounds check in the kernel matters.
    test::SaxpyJob saxpy(vulkan.device(), 1000, 64);
    saxpy.job().run();
    check_close(saxpy.result(), saxpy.expected(1));
}

TEST_CASE("two workgroup sizes via specialization give the same correct result") {
    test::VulkanFixture vulkan;
    test::SaxpyJob small(vulkan.device(), 4099, 32);
    test::SaxpyJob large(vulkan.device(), 4099, 256);
    small.job().run();
    large.job().run();
    check_close(small.result(), small.expected(1));
    CHECK(small.result() == large.result());
}

TEST_CASE("a timed batch of N dispatches runs N times and reports per-dispatch time") {
    test::VulkanFixture vulkan;
    test::SaxpyJob saxpy(vulkan.device(), 2048, 64);
    const vulkan::DispatchTiming timing = saxpy.job().time(5);
    CHECK(timing.dispatches == 5);
    CHECK(timing.total_ns > 0);
    CHECK(timing.per_dispatch_ns == doctest::Approx(timing.total_ns / 5));
    CHECK(timing.method == vulkan::TimingMethod::device_timestamps);
    // Each dispatch saw its predecessor's writes: five applications of y = a*x + y.
    check_close(saxpy.result(), saxpy.expected(5));
}

TEST_CASE("samples in one submission each time their own window, and every run happens") {
    test::VulkanFixture vulkan;
    test::SaxpyJob saxpy(vulkan.device(), 2048, 64);
    const std::vector<vulkan::DispatchTiming> timings = saxpy.job().time_samples(3, 4);
    REQUIRE(timings.size() == 4);
    for (const vulkan::DispatchTiming& timing : timings) {
        CHECK(timing.dispatches == 3);
        CHECK(timing.total_ns > 0);
        CHECK(timing.per_dispatch_ns == doctest::Approx(timing.total_ns / 3));
        CHECK(timing.method == vulkan::TimingMethod::device_timestamps);
    }
    // The windows run on from one another with a barrier between: twelve applications.
    check_close(saxpy.result(), saxpy.expected(12));
    // A larger request than the query pool held at first still gets a timestamp pair each.
    const std::vector<vulkan::DispatchTiming> many = saxpy.job().time_samples(1, 40);
    REQUIRE(many.size() == 40);
    CHECK(std::all_of(many.begin(), many.end(),
                      [](const vulkan::DispatchTiming& t) { return t.total_ns > 0; }));
    check_close(saxpy.result(), saxpy.expected(52));
}

TEST_CASE("a job's restores give every submission the same start, and no window a fresh one") {
    test::VulkanFixture vulkan;
    test::SaxpyJob saxpy(vulkan.device(), 2048, 64);
    const std::unique_ptr<vulkan::ComputeJob> job = saxpy.restoring(vulkan.device());
    job->run();
    job->run();
    // The second run started again from the first contents: one application, not two.
    check_close(saxpy.result(), saxpy.expected(1));
    (void)job->time(3);
    check_close(saxpy.result(), saxpy.expected(3));
    // Restored once a submission: its windows still run on from one another.
    (void)job->time_samples(2, 3);
    check_close(saxpy.result(), saxpy.expected(6));
    // Warming up touches no buffer: what the last submission left stays.
    job->warm_up();
    check_close(saxpy.result(), saxpy.expected(6));
}

TEST_CASE("a restore that does not fit its buffers is refused") {
    test::VulkanFixture vulkan;
    vulkan::Buffer small(vulkan.device(), 64);
    vulkan::Buffer large(vulkan.device(), 256);
    test::SaxpyJob saxpy(vulkan.device(), 16, 16);
    const auto job_restoring = [&](vulkan::BufferCopy copy) {
        return vulkan::ComputeJob(vulkan.device(), std::vector<vulkan::Dispatch>{saxpy.dispatch()},
                                  std::vector<vulkan::BufferCopy>{copy});
    };
    CHECK_THROWS_WITH_AS(job_restoring({&large, 0, &small, 0, 128}),
                         doctest::Contains("restore 0 of a compute job does not fit"),
                         vulkan::Error);
    CHECK_THROWS_WITH_AS(job_restoring({&small, 32, &large, 0, 64}),
                         doctest::Contains("does not fit"), vulkan::Error);
    CHECK_THROWS_WITH_AS(job_restoring({nullptr, 0, &large, 0, 64}),
                         doctest::Contains("does not fit"), vulkan::Error);
    CHECK_NOTHROW(job_restoring({&small, 0, &large, 192, 64}));
}

TEST_CASE("a submission of no samples, or more than one submission holds, is refused") {
    test::VulkanFixture vulkan;
    test::SaxpyJob saxpy(vulkan.device(), 256, 64);
    CHECK_THROWS_WITH_AS(saxpy.job().time_samples(1, 0), doctest::Contains("cannot take 0 samples"),
                         vulkan::Error);
    CHECK_THROWS_WITH_AS(saxpy.job().time_samples(1, 65), doctest::Contains("(1 to 64)"),
                         vulkan::Error);
    CHECK_THROWS_WITH_AS(saxpy.job().time_samples(0, 2), doctest::Contains("cannot time 0 runs"),
                         vulkan::Error);
}

TEST_CASE("the dispatches of a job run in order, each seeing the writes of the one before") {
    test::VulkanFixture vulkan;
    test::SaxpyJob saxpy(vulkan.device(), 2048, 64);
    const auto three = saxpy.chained(vulkan.device(), 3);
    three->run();
    check_close(saxpy.result(), saxpy.expected(3));
    // A timed batch repeats the whole job: two runs of three dispatches, timed as two runs.
    const vulkan::DispatchTiming timing = three->time(2);
    CHECK(timing.dispatches == 2);
    CHECK(timing.per_dispatch_ns == doctest::Approx(timing.total_ns / 2));
    check_close(saxpy.result(), saxpy.expected(9));
    // Restores come before the first host-clock window, in a submission of their own.
    const std::unique_ptr<vulkan::ComputeJob> restoring = saxpy.restoring(vulkan.device());
    (void)restoring->time_samples(2, 3);
    check_close(saxpy.result(), saxpy.expected(6));
}

TEST_CASE("a job of no dispatches is refused") {
    test::VulkanFixture vulkan;
    CHECK_THROWS_WITH_AS(vulkan::ComputeJob(vulkan.device(), std::vector<vulkan::Dispatch>{}),
                         "a compute job needs at least one dispatch", vulkan::Error);
}

TEST_CASE("push constants of the wrong size are refused with the sizes named") {
    test::VulkanFixture vulkan;
    const auto module = vulkan::SpirvModule::load(test::kernel_path("saxpy"));
    const vulkan::ComputePipeline pipeline(vulkan.device(), module, "main");
    vulkan::Buffer x(vulkan.device(), 256);
    vulkan::Buffer y(vulkan.device(), 256);
    const vulkan::BufferBinding bindings[] = {{0, 0, &x}, {0, 1, &y}};
    CHECK_THROWS_WITH_AS(vulkan::ComputeJob(vulkan.device(), pipeline, bindings,
                                            std::vector<std::byte>(4), {1, 1, 1}),
                         doctest::Contains("push-constant block is 8 bytes but 4 bytes were given"),
                         vulkan::Error);
}

TEST_CASE("a binding the shader uses but nobody bound is refused") {
    test::VulkanFixture vulkan;
    const auto module = vulkan::SpirvModule::load(test::kernel_path("saxpy"));
    const vulkan::ComputePipeline pipeline(vulkan.device(), module, "main");
    vulkan::Buffer x(vulkan.device(), 256);
    const vulkan::BufferBinding bindings[] = {{0, 0, &x}};
    CHECK_THROWS_WITH_AS(vulkan::ComputeJob(vulkan.device(), pipeline, bindings,
                                            std::vector<std::byte>(8), {1, 1, 1}),
                         doctest::Contains("storage buffer set 0 binding 1 but no buffer is bound"),
                         vulkan::Error);
    const vulkan::BufferBinding extra[] = {{0, 0, &x}, {0, 1, &x}, {1, 0, &x}};
    CHECK_THROWS_WITH_AS(
        vulkan::ComputeJob(vulkan.device(), pipeline, extra, std::vector<std::byte>(8), {1, 1, 1}),
        doctest::Contains("uses no descriptor at set 1 binding 0"), vulkan::Error);
}

TEST_CASE("workgroup sizes and counts beyond the device limits are refused") {
    test::VulkanFixture vulkan;
    const auto& limits = vulkan.device().info().limits;
    const auto module = vulkan::SpirvModule::load(test::kernel_path("saxpy"));
    const vulkan::Specialization too_wide{0, limits.maxComputeWorkGroupSize[0] + 1};
    CHECK_THROWS_WITH_AS(
        vulkan::ComputePipeline(vulkan.device(), module, "main", std::span(&too_wide, 1)),
        doctest::Contains("maxComputeWorkGroupSize"), vulkan::Error);

    const vulkan::Specialization wrong_type{0, 1.5f};
    CHECK_THROWS_WITH_AS(
        vulkan::ComputePipeline(vulkan.device(), module, "main", std::span(&wrong_type, 1)),
        doctest::Contains("is uint32, not float32"), vulkan::SpirvError);

    const vulkan::Specialization unknown{9, 1U};
    CHECK_THROWS_WITH_AS(
        vulkan::ComputePipeline(vulkan.device(), module, "main", std::span(&unknown, 1)),
        doctest::Contains("no specialization constant with id 9"), vulkan::SpirvError);

    const vulkan::ComputePipeline pipeline(vulkan.device(), module, "main");
    vulkan::Buffer x(vulkan.device(), 256);
    const vulkan::BufferBinding bindings[] = {{0, 0, &x}, {0, 1, &x}};
    CHECK_THROWS_WITH_AS(
        vulkan::ComputeJob(vulkan.device(), pipeline, bindings, std::vector<std::byte>(8),
                           {limits.maxComputeWorkGroupCount[0] + 1, 1, 1}),
        doctest::Contains("maxComputeWorkGroupCount"), vulkan::Error);
}

TEST_CASE("a buffer larger than the device allows is a clear out-of-memory error") {
    test::VulkanFixture vulkan;
    const VkDeviceSize limit = vulkan.device().info().max_memory_allocation_size;
    REQUIRE(limit > 0);
    CHECK_THROWS_WITH_AS(vulkan::Buffer(vulkan.device(), limit + 1),
                         doctest::Contains("maxMemoryAllocationSize"), vulkan::OutOfMemoryError);
}

TEST_CASE("timestamp intervals mask to the valid bits and survive a counter wrap") {
    using vulkan::timestamp_interval_ns;
    CHECK(timestamp_interval_ns(100, 250, 64, 1.0f) == 150.0);
    CHECK(timestamp_interval_ns(100, 250, 64, 2.5f) == 375.0);
    // 36 valid bits: the counter wrapped from near 2^36 to a small value.
    const std::uint64_t top = (std::uint64_t{1} << 36) - 10;
    CHECK(timestamp_interval_ns(top, 5, 36, 1.0f) == 15.0);
    // Garbage above the valid bits is ignored.
    CHECK(timestamp_interval_ns((std::uint64_t{0xabc} << 36) | 10, 30, 36, 1.0f) == 20.0);
}

TEST_CASE("without device timestamps, timing falls back to the host clock and says so") {
    test::VulkanFixture vulkan(vulkan::DeviceOptions{.host_timing = true});
    test::SaxpyJob saxpy(vulkan.device(), 2048, 64);
    const vulkan::DispatchTiming timing = saxpy.job().time(3);
    CHECK(timing.method == vulkan::TimingMethod::host_clock);
    CHECK(timing.total_ns > 0);
    CHECK(timing.per_dispatch_ns == doctest::Approx(timing.total_ns / 3));
    check_close(saxpy.result(), saxpy.expected(3));
    // The host clock sees a whole submission, so each of several samples is its own.
    const std::vector<vulkan::DispatchTiming> samples = saxpy.job().time_samples(2, 3);
    REQUIRE(samples.size() == 3);
    for (const vulkan::DispatchTiming& sample : samples) {
        CHECK(sample.method == vulkan::TimingMethod::host_clock);
        CHECK(sample.dispatches == 2);
    }
    check_close(saxpy.result(), saxpy.expected(9));
    // Restores come before the first host-clock window, in a submission of their own.
    const std::unique_ptr<vulkan::ComputeJob> restoring = saxpy.restoring(vulkan.device());
    (void)restoring->time_samples(2, 3);
    check_close(saxpy.result(), saxpy.expected(6));
}

TEST_CASE("a submission past the fence timeout is an error, not a hang") {
    test::VulkanFixture vulkan(
        vulkan::DeviceOptions{.fence_timeout = std::chrono::milliseconds(0)});
    test::SaxpyJob saxpy(vulkan.device(), 1U << 18, 64);
    // Milliseconds of work: past a zero timeout, well within the grace period after it (so the
    // device stays usable and nothing is destroyed while in use).
    CHECK_THROWS_WITH_AS(saxpy.job().time(4), doctest::Contains("fence timeout"),
                         vulkan::TimeoutError);
}

}  // namespace compute_job_test
