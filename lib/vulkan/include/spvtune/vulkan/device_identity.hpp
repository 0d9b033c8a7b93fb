#pragma once

#include <array>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>
#include <vulkan/vulkan.h>

namespace spvtune::vulkan {

/// Everything that identifies a physical device and its driver, as Vulkan reports it.
struct DeviceIdentity {
    std::uint32_t vendor_id = 0;
    std::uint32_t device_id = 0;
    std::string device_name;
    VkPhysicalDeviceType device_type = VK_PHYSICAL_DEVICE_TYPE_OTHER;
    VkDriverId driver_id = static_cast<VkDriverId>(0);
    std::string driver_name;
    std::string driver_info;
    std::uint32_t driver_version_raw = 0;
    /// Decoded the way the vendor encodes it (NVIDIA 10.8.8.6 bits, Intel on Windows 18.14).
    std::string driver_version;
    std::uint32_t api_version = 0;
    std::array<std::uint8_t, VK_UUID_SIZE> device_uuid{};
    std::array<std::uint8_t, VK_UUID_SIZE> driver_uuid{};
    std::array<std::uint8_t, VK_UUID_SIZE> pipeline_cache_uuid{};

    /// Stable, file-name-safe identity: a readable slug of the device name, then a 16-hex-digit
    /// hash of the fields that make timings non-portable (vendor, device, driver version,
    /// pipeline-cache UUID). Equal across runs and processes on the same hardware and driver.
    std::string key() const;

    /// All fields, with UUIDs in canonical 8-4-4-4-12 form and enums by name.
    nlohmann::json to_json() const;
};

/// Driver version as its vendor spells it, e.g. "535.104.5.0" for NVIDIA.
std::string decode_driver_version(std::uint32_t vendor_id, VkDriverId driver_id,
                                  std::uint32_t version);

/// "major.minor.patch" of a VK_MAKE_API_VERSION value.
std::string decode_api_version(std::uint32_t version);

/// Canonical 8-4-4-4-12 lower-case hex form.
std::string uuid_to_string(const std::array<std::uint8_t, VK_UUID_SIZE>& uuid);

std::string to_string(VkPhysicalDeviceType type);

}  // namespace spvtune::vulkan
