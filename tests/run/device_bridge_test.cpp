#include <doctest/doctest.h>

#include <spvtune/run/device_bridge.hpp>

namespace device_bridge_test {

using namespace spvtune;

namespace {

vulkan::DeviceIdentity nvidia_h200() {
    vulkan::DeviceIdentity identity;
    identity.vendor_id = 0x10de;
    identity.device_id = 0x2335;
    identity.device_name = "NVIDIA H200";
    identity.device_type = VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU;
    identity.driver_id = VK_DRIVER_ID_NVIDIA_PROPRIETARY;
    identity.driver_version_raw = (550U << 22U) | (54U << 14U);
    identity.driver_version = "550.54.0.0";
    identity.pipeline_cache_uuid[0] = 0x42;
    return identity;
}

}  // namespace

TEST_CASE("a Vulkan device identity becomes the tuner's hardware identity field by field") {
    const vulkan::DeviceIdentity identity = nvidia_h200();
    const tune::HardwareIdentity hardware = run::hardware_identity(identity);
    CHECK(hardware.key == identity.key());
    CHECK(hardware.vendor_id == 0x10de);
    CHECK(hardware.device_id == 0x2335);
    CHECK(hardware.device_name == "NVIDIA H200");
    CHECK(hardware.driver_version == "550.54.0.0");
    CHECK(hardware.record == identity.to_json());

    vulkan::DeviceIdentity other_driver = identity;
    other_driver.driver_version_raw += 1;
    CHECK(run::hardware_identity(other_driver).key != hardware.key);
}

TEST_CASE("the device client reports its device's hardware identity") {
    vulkan::PhysicalDeviceInfo device;
    device.identity = nvidia_h200();
    const run::DeviceClient client(device);
    CHECK(client.hardware_identity().key == device.identity.key());
    CHECK(client.hardware_identity().record.at("device_name") == "NVIDIA H200");
}

TEST_CASE("a timed batch becomes a sample of one dispatch, keeping its clock") {
    const vulkan::DispatchTiming device_timed{8000, 1000, 8,
                                              vulkan::TimingMethod::device_timestamps};
    const tune::Sample sample = run::to_sample(device_timed);
    CHECK(sample.ns_per_run == 1000);
    CHECK(sample.method == tune::TimingMethod::device_timestamps);

    const vulkan::DispatchTiming host_timed{500, 500, 1, vulkan::TimingMethod::host_clock};
    CHECK(run::to_sample(host_timed).method == tune::TimingMethod::host_clock);
}

}  // namespace device_bridge_test
