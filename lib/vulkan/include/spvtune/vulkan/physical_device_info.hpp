#pragma once

#include <cstdint>
#include <optional>

#include <vulkan/vulkan.h>

#include <spvtune/vulkan/device_identity.hpp>

namespace spvtune::vulkan {

/// Optional shader features a kernel may need; a Device enables each one the hardware supports.
struct ShaderFeatures {
    bool float64 = false;
    bool int64 = false;
    bool int16 = false;
    bool float16 = false;
    bool int8 = false;
    bool storage_buffer_16bit = false;
    bool storage_buffer_8bit = false;
};

/// Subgroup support of compute shaders (Vulkan 1.1 VkPhysicalDeviceSubgroupProperties).
struct SubgroupSupport {
    std::uint32_t size = 0;
    /// VkSubgroupFeatureFlags usable in compute shaders; 0 when compute has no subgroup ops.
    VkSubgroupFeatureFlags operations = 0;
};

/// A physical device as the engine sees it: identity, the queue family compute runs on, and the
/// limits that decide whether a dispatch can run.
struct PhysicalDeviceInfo {
    VkPhysicalDevice handle = VK_NULL_HANDLE;
    /// Position in the loader's enumeration order.
    std::uint32_t index = 0;
    DeviceIdentity identity;
    VkPhysicalDeviceLimits limits{};
    VkPhysicalDeviceMemoryProperties memory{};
    /// Largest single allocation the driver accepts (maintenance3).
    VkDeviceSize max_memory_allocation_size = 0;
    /// The compute-capable queue family chosen for this device; empty when it has none.
    std::optional<std::uint32_t> compute_queue_family;
    /// timestampValidBits of that family: 0 means no timestamps, timing falls back to the host.
    std::uint32_t timestamp_valid_bits = 0;
    ShaderFeatures features;
    SubgroupSupport subgroups;

    bool supports_compute() const noexcept { return compute_queue_family.has_value(); }
    bool supports_timestamps() const noexcept {
        return timestamp_valid_bits > 0 && limits.timestampPeriod > 0;
    }
};

}  // namespace spvtune::vulkan
