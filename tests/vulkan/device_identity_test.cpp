#include <regex>

#include <doctest/doctest.h>

#include <spvtune/vulkan/device_identity.hpp>
#include <spvtune/vulkan/device_selector.hpp>
#include <spvtune/vulkan/error.hpp>

#include "vulkan_fixture.hpp"

namespace device_identity_test {

using namespace spvtune;

TEST_CASE("identity fields are filled and the identity string is stable across instances") {
    std::string first_key;
    nlohmann::json first_record;
    for (int run = 0; run < 2; ++run) {
        test::VulkanFixture vulkan;
        const vulkan::DeviceIdentity& identity = vulkan.device().info().identity;
        CHECK(identity.vendor_id != 0);
        CHECK_FALSE(identity.device_name.empty());
        CHECK_FALSE(identity.driver_name.empty());
        CHECK_FALSE(identity.driver_version.empty());
        CHECK(identity.api_version >= VK_API_VERSION_1_1);
        CHECK(identity.pipeline_cache_uuid != std::array<std::uint8_t, VK_UUID_SIZE>{});
        const std::string key = identity.key();
        CHECK(std::regex_match(key, std::regex("[a-z0-9-]+-[0-9a-f]{16}")));
        if (run == 0) {
            first_key = key;
            first_record = identity.to_json();
        } else {
            CHECK(key == first_key);
            CHECK(identity.to_json() == first_record);
        }
    }
}

TEST_CASE("the identity hash changes with the fields that make timings non-portable") {
    vulkan::DeviceIdentity identity;
    identity.device_name = "Some GPU 9000 (rev. 2)";
    identity.vendor_id = 0x10de;
    identity.device_id = 0x2335;
    identity.driver_version_raw = 0x85e14000;
    const std::string key = identity.key();
    CHECK(key.rfind("some-gpu-9000-rev-2-", 0) == 0);

    auto other_driver = identity;
    other_driver.driver_version_raw += 1;
    CHECK(other_driver.key() != key);
    auto other_cache = identity;
    other_cache.pipeline_cache_uuid[3] = 1;
    CHECK(other_cache.key() != key);
    auto other_uuid = identity;  // the device UUID names one board, not a kind of hardware
    other_uuid.device_uuid[0] = 7;
    CHECK(other_uuid.key() == key);
}

TEST_CASE("driver versions are decoded the way each vendor encodes them") {
    // NVIDIA 535.104.05: 10 bits major, 8 minor, 8 patch, 6 build.
    const std::uint32_t nvidia = (535U << 22) | (104U << 14) | (5U << 6) | 0U;
    CHECK(vulkan::decode_driver_version(0x10de, VK_DRIVER_ID_NVIDIA_PROPRIETARY, nvidia) ==
          "535.104.5.0");
    // Intel on Windows: 18 bits major, 14 minor.
    const std::uint32_t intel = (101U << 14) | 4502U;
    CHECK(vulkan::decode_driver_version(0x8086, VK_DRIVER_ID_INTEL_PROPRIETARY_WINDOWS, intel) ==
          "101.4502");
    // Mesa (and everyone else) uses the Vulkan version encoding.
    CHECK(vulkan::decode_driver_version(0x10005, VK_DRIVER_ID_MESA_LLVMPIPE,
                                        VK_MAKE_API_VERSION(0, 0, 0, 1)) == "0.0.1");
    CHECK(vulkan::decode_driver_version(0x8086, VK_DRIVER_ID_INTEL_OPEN_SOURCE_MESA,
                                        VK_MAKE_API_VERSION(0, 23, 1, 2)) == "23.1.2");
}

TEST_CASE("device selection by default, index, name substring and UUID") {
    test::VulkanFixture vulkan;
    const auto& devices = vulkan.instance().devices();
    REQUIRE_FALSE(devices.empty());
    const auto& chosen = vulkan::select_device(devices, "");
    CHECK(chosen.supports_compute());
    CHECK(&vulkan::select_device(devices, std::to_string(chosen.index)) == &chosen);

    std::string name = chosen.identity.device_name.substr(0, 4);
    for (char& c : name) {
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    CHECK(vulkan::select_device(devices, name).identity.device_name == chosen.identity.device_name);
    const std::string uuid = vulkan::uuid_to_string(chosen.identity.device_uuid);
    CHECK(vulkan::select_device(devices, uuid).index == chosen.index);
}

TEST_CASE("a device selector that matches nothing is a clear error naming the selector") {
    test::VulkanFixture vulkan;
    const auto& devices = vulkan.instance().devices();
    CHECK_THROWS_WITH_AS(vulkan::select_device(devices, "no-such-gpu-xyz"),
                         doctest::Contains("no device name contains 'no-such-gpu-xyz'"),
                         vulkan::DeviceSelectionError);
    CHECK_THROWS_WITH_AS(vulkan::select_device(devices, "99"),
                         doctest::Contains("device index 99 is out of range"),
                         vulkan::DeviceSelectionError);
    CHECK_THROWS_WITH_AS(vulkan::select_device(devices, "99999999999999999999999"),
                         doctest::Contains("out of range"), vulkan::DeviceSelectionError);
    CHECK_THROWS_WITH_AS(vulkan::select_device(devices, "00000000-0000-0000-0000-000000000000"),
                         doctest::Contains("no device has UUID"), vulkan::DeviceSelectionError);
    // The message lists what is there, so the user can pick.
    CHECK_THROWS_WITH_AS(vulkan::select_device(devices, "no-such-gpu-xyz"),
                         doctest::Contains(devices.front().identity.device_name.c_str()),
                         vulkan::DeviceSelectionError);
}

}  // namespace device_identity_test
