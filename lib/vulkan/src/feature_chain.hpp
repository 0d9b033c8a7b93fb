#pragma once

#include <vulkan/vulkan.h>

namespace spvtune::vulkan::detail {

/// The optional-feature structures spvtune cares about, chained for a query or for device
/// creation. The 1.1/1.2 feature structures exist only from Vulkan 1.2 on, so they are chained
/// only for such devices; older devices report none of those features.
struct FeatureChain {
    VkPhysicalDeviceVulkan12Features v12{};
    VkPhysicalDeviceVulkan11Features v11{};
    VkPhysicalDeviceFeatures2 core{};

    explicit FeatureChain(bool has_v12) {
        v11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
        v12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
        core.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
        if (has_v12) {
            core.pNext = &v11;
            v11.pNext = &v12;
        }
    }
    FeatureChain(const FeatureChain&) = delete;
    FeatureChain& operator=(const FeatureChain&) = delete;
};

}  // namespace spvtune::vulkan::detail
