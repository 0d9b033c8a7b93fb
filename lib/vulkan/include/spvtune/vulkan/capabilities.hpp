#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <spvtune/vulkan/physical_device_info.hpp>

namespace spvtune::vulkan {

/// Names of the optional device capabilities a kernel can require (a problem's `requires`):
/// subgroup_basic, subgroup_vote, subgroup_arithmetic, subgroup_ballot, subgroup_shuffle,
/// subgroup_shuffle_relative, subgroup_clustered, subgroup_quad, float64, int64, int16,
/// float16, int8, storage_buffer_8bit, storage_buffer_16bit.
const std::vector<std::string>& known_capabilities();

/// Whether `name` is one of known_capabilities().
bool is_known_capability(std::string_view name);

/// Whether the device has the capability (subgroup ones: in compute shaders). False for
/// unknown names.
bool has_capability(const PhysicalDeviceInfo& device, std::string_view name);

/// The capabilities the device has, in known_capabilities() order.
std::vector<std::string> capabilities(const PhysicalDeviceInfo& device);

}  // namespace spvtune::vulkan
