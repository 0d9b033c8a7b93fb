#include <algorithm>
#include <vector>

#include <doctest/doctest.h>

#include "saxpy_job.hpp"
#include "vulkan_fixture.hpp"

using namespace spvtune;

namespace {

/// The fastest of several samples: interference from other processes only ever adds time, so
/// the minimum is the steadiest estimate on a shared machine.
double fastest_per_dispatch_ns(vulkan::ComputeJob& job, int samples, std::uint32_t batch) {
    job.time(batch);  // warm-up
    std::vector<double> times;
    for (int i = 0; i < samples; ++i) {
        const auto timing = job.time(batch);
        CHECK(timing.per_dispatch_ns > 0);
        times.push_back(timing.per_dispatch_ns);
    }
    return *std::min_element(times.begin(), times.end());
}

}  // namespace

TEST_CASE("timestamp timing grows with the work: 8x the elements takes clearly longer") {
    test::VulkanFixture vulkan;
    test::SaxpyJob small(vulkan.device(), 1U << 17, 64);
    test::SaxpyJob large(vulkan.device(), 1U << 20, 64);
    const double small_ns = fastest_per_dispatch_ns(small.job(), 7, 4);
    const double large_ns = fastest_per_dispatch_ns(large.job(), 7, 4);
    MESSAGE("fastest per dispatch: 2^17 elements " << small_ns << " ns, 2^20 elements " << large_ns
                                                   << " ns, ratio " << large_ns / small_ns);
    // Ideal is 8x; a shared CPU device is noisy, so ask only for a clear difference.
    CHECK(large_ns > 2.0 * small_ns);
}

TEST_CASE("a batch of N dispatches costs about N times one dispatch in total") {
    test::VulkanFixture vulkan;
    test::SaxpyJob saxpy(vulkan.device(), 1U << 18, 64);
    saxpy.job().time(2);
    std::vector<double> one;
    std::vector<double> eight;
    for (int i = 0; i < 7; ++i) {
        one.push_back(saxpy.job().time(1).total_ns);
        eight.push_back(saxpy.job().time(8).total_ns);
    }
    const double ratio =
        *std::min_element(eight.begin(), eight.end()) / *std::min_element(one.begin(), one.end());
    MESSAGE("total of 8 dispatches / total of 1 = " << ratio);
    CHECK(ratio > 3.0);
}
