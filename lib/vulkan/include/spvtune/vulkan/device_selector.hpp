#pragma once

#include <string_view>
#include <vector>

#include <spvtune/vulkan/physical_device_info.hpp>

namespace spvtune::vulkan {

/// Picks the device a selector names.
///
/// - empty: the first discrete GPU, else the first integrated GPU, else the first virtual GPU,
///   else the first CPU device (lavapipe), among the devices that can do compute;
/// - all digits: the device at that enumeration index;
/// - a UUID (8-4-4-4-12 hex, case-insensitive): the device with that deviceUUID;
/// - anything else: the first device whose name contains it, case-insensitively.
///
/// Throws DeviceSelectionError naming the selector and listing the devices when nothing
/// matches, or when the match cannot do compute.
const PhysicalDeviceInfo& select_device(const std::vector<PhysicalDeviceInfo>& devices,
                                        std::string_view selector);

}  // namespace spvtune::vulkan
