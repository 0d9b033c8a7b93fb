#include <cstddef>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/vulkan/buffer.hpp>
#include <spvtune/vulkan/error.hpp>

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

}  // namespace buffer_test
