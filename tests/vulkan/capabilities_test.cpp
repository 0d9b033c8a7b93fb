#include <doctest/doctest.h>

#include <spvtune/vulkan/capabilities.hpp>

#include "vulkan_fixture.hpp"

namespace capabilities_test {

using namespace spvtune;

TEST_CASE("capabilities name what the device supports, subgroups in compute included") {
    test::VulkanFixture vulkan;
    const vulkan::PhysicalDeviceInfo& device = vulkan.device().info();
    const auto names = vulkan::capabilities(device);
    for (const std::string& name : names) {
        CHECK(vulkan::is_known_capability(name));
        CHECK(vulkan::has_capability(device, name));
    }
    // Vulkan 1.1 makes basic subgroup operations in compute shaders mandatory.
    CHECK(vulkan::has_capability(device, "subgroup_basic"));
    CHECK(device.subgroups.size >= 1);
    CHECK(vulkan::has_capability(device, "float64") == device.features.float64);
    CHECK(vulkan::has_capability(device, "float64") == vulkan.device().features().float64);
}

TEST_CASE("capability names are checked, and a device without a feature lacks it") {
    CHECK_FALSE(vulkan::is_known_capability("subgroup_magic"));
    vulkan::PhysicalDeviceInfo bare;
    CHECK_FALSE(vulkan::has_capability(bare, "subgroup_magic"));
    for (const std::string& name : vulkan::known_capabilities()) {
        CHECK_FALSE(vulkan::has_capability(bare, name));
    }
    bare.subgroups.operations = VK_SUBGROUP_FEATURE_ARITHMETIC_BIT;
    bare.features.int8 = true;
    CHECK(vulkan::capabilities(bare) == std::vector<std::string>{"subgroup_arithmetic", "int8"});
}

}  // namespace capabilities_test
