#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace spvtune::vulkan::detail {

/// Validates host-order SPIR-V with SPIRV-Tools under the Vulkan rules for the module's SPIR-V
/// version (1.0..1.6 -> Vulkan 1.0..1.3). Throws SpirvError naming `display_name` and quoting
/// the validator when the module is invalid or its version is one Vulkan 1.3 does not accept.
void validate_spirv(std::span<const std::uint32_t> words, const std::string& display_name);

}  // namespace spvtune::vulkan::detail
