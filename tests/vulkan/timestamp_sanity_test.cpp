// A driver's timestamps can be wrong (a misstated timestampPeriod or valid-bit count, stamps
// written out of order), and lavapipe's never are. This test executable defines
// vkGetQueryPoolResults itself, which takes precedence over the loader's export for the
// statically linked engine: while a distortion is active it rewrites the stamps the loader
// returned, so the engine's check is seen against readings a real device could give.

#include <atomic>
#include <cstdint>
#include <dlfcn.h>
#include <functional>

#include <doctest/doctest.h>

#include <spvtune/vulkan/error.hpp>

#include "saxpy_job.hpp"
#include "vulkan_fixture.hpp"

namespace timestamp_sanity_test {

namespace {

/// Rewrites the 64-bit stamps of one vkGetQueryPoolResults call, in place; none: left as read.
std::atomic<const std::function<void(std::uint64_t*, std::uint32_t)>*> distortion{nullptr};

/// Sets the distortion for the scope.
class Distorted {
  public:
    explicit Distorted(std::function<void(std::uint64_t*, std::uint32_t)> rewrite)
        : rewrite_(std::move(rewrite)) {
        distortion = &rewrite_;
    }
    ~Distorted() { distortion = nullptr; }
    Distorted(const Distorted&) = delete;
    Distorted& operator=(const Distorted&) = delete;

  private:
    std::function<void(std::uint64_t*, std::uint32_t)> rewrite_;
};

}  // namespace

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL vkGetQueryPoolResults(VkDevice device, VkQueryPool pool,
                                                     std::uint32_t first, std::uint32_t count,
                                                     std::size_t size, void* data,
                                                     VkDeviceSize stride,
                                                     VkQueryResultFlags flags) {
    static const auto forward =
        reinterpret_cast<PFN_vkGetQueryPoolResults>(dlsym(RTLD_NEXT, "vkGetQueryPoolResults"));
    const VkResult result = forward(device, pool, first, count, size, data, stride, flags);
    if (const auto* rewrite = distortion.load(); rewrite != nullptr && result == VK_SUCCESS &&
                                                 (flags & VK_QUERY_RESULT_64_BIT) != 0 &&
                                                 stride == sizeof(std::uint64_t)) {
        (*rewrite)(static_cast<std::uint64_t*>(data), count);
    }
    return result;
}

}  // extern "C"

TEST_CASE("timestamps that read longer than the host waited for their submission are refused") {
    spvtune::test::VulkanFixture vulkan;
    spvtune::test::SaxpyJob saxpy(vulkan.device(), 1U << 16, 64);
    // As read, the stamps are times.
    CHECK_NOTHROW(saxpy.job().time_samples(2, 3));
    {
        // A period far too long: every window 100,000 times its time.
        const Distorted stretched([](std::uint64_t* stamps, std::uint32_t count) {
            for (std::uint32_t i = 1; i < count; ++i) {
                stamps[i] = stamps[0] + (stamps[i] - stamps[0]) * 100'000;
            }
        });
        CHECK_THROWS_WITH_AS(saxpy.job().time_samples(2, 3),
                             doctest::Contains("the device's timestamps read"),
                             spvtune::vulkan::TimestampError);
        CHECK_THROWS_WITH_AS(saxpy.job().time(1), doctest::Contains("by the host clock"),
                             spvtune::vulkan::TimestampError);
    }
    {
        // Stamps out of order: the total is right, but a window wraps around to a huge one.
        const Distorted swapped([](std::uint64_t* stamps, std::uint32_t count) {
            if (count >= 3) {
                std::swap(stamps[1], stamps[2]);
            }
        });
        CHECK_THROWS_AS(saxpy.job().time_samples(1, 2), spvtune::vulkan::TimestampError);
    }
    // Nothing is left broken: the next reading is a time again.
    CHECK(saxpy.job().time(1).total_ns > 0);
}

}  // namespace timestamp_sanity_test
