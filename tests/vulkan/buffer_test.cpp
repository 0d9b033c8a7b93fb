#include <cstddef>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/base/large_page_allocator.hpp>
#include <spvtune/vulkan/buffer.hpp>
#include <spvtune/vulkan/error.hpp>

#include "saxpy_job.hpp"
#include "support/huge_page_advice.hpp"
#include "vulkan_fixture.hpp"

namespace buffer_test {

using namespace spvtune;

TEST_CASE("a buffer is filled over a range and compared in place") {
    test::VulkanFixture vulkan;
    vulkan::Buffer buffer(vulkan.device(), 64);
    buffer.upload(std::vector<std::byte>(64, std::byte{7}));
    buffer.fill(std::byte{0xff}, 16, 32);
    const std::vector<std::byte> held = buffer.download();
    for (std::size_t i = 0; i < held.size(); ++i) {
        CAPTURE(i);
        CHECK(held[i] == (i >= 16 && i < 48 ? std::byte{0xff} : std::byte{7}));
    }
    CHECK(buffer.holds(std::vector<std::byte>(32, std::byte{0xff}), 16));
    CHECK(buffer.holds(std::vector<std::byte>(16, std::byte{7})));
    // One byte off, at either end of the compared range, is a difference.
    CHECK_FALSE(buffer.holds(std::vector<std::byte>(33, std::byte{0xff}), 16));
    CHECK_FALSE(buffer.holds(std::vector<std::byte>(17, std::byte{7})));
    // Past the end: not held, and a fill there is refused.
    CHECK_FALSE(buffer.holds(std::vector<std::byte>(8, std::byte{7}), 60));
    CHECK_THROWS_WITH_AS(buffer.fill(std::byte{0}, 60, 8),
                         doctest::Contains("at offset 60 of a buffer of 64 bytes"), vulkan::Error);
    CHECK(buffer.holds({}, 64));
}

TEST_CASE("a buffer of megabytes holds every byte where the host and a kernel expect it") {
    test::VulkanFixture vulkan;
    const std::size_t size = 4 * base::large_page_bytes + 4099;
    const std::size_t advised_before = test::huge_page_advice().advised_bytes;
    vulkan::Buffer buffer(vulkan.device(), size);
    if (vulkan.device().info().identity.device_type == VK_PHYSICAL_DEVICE_TYPE_CPU) {
        // A CPU device's memory is this process's: the buffer's lies on huge pages where the
        // kernel grants them, and the advice is in the process's memory map.
        CHECK(test::huge_page_advice().advised_bytes >= advised_before + size - 4099);
    }
    std::vector<std::byte> pattern(size);
    for (std::size_t i = 0; i < size; ++i) {
        pattern[i] = static_cast<std::byte>(i * 7 + i / 4096);
    }
    buffer.upload(pattern);
    CHECK(buffer.download() == pattern);
    CHECK(buffer.holds(pattern));
    buffer.fill(std::byte{0xee}, size - 3, 3);
    CHECK(buffer.holds(std::vector<std::byte>(3, std::byte{0xee}), size - 3));
    CHECK(buffer.download(0, 64) == std::vector<std::byte>(pattern.begin(), pattern.begin() + 64));

    // Bound, copied and restored on the device: a million floats each way.
    test::SaxpyJob saxpy(vulkan.device(), 1U << 20, 256);
    const auto restoring = saxpy.restoring(vulkan.device());
    restoring->run();
    restoring->run();
    CHECK(saxpy.result() == saxpy.expected(1));
}

}  // namespace buffer_test
