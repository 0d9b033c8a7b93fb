#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <spvtune/vulkan/spirv_reflection.hpp>

// Descriptor bindings and push constants of compute entry points, reflected with SPIRV-Cross:
// it finds the variables an entry point statically uses (following its call graph) and computes
// block sizes from the layout decorations, which are the parts worth not re-implementing.
namespace spvtune::vulkan::detail {

struct EntryPointResources {
    std::vector<DescriptorBinding> bindings;  ///< ordered by (set, binding)
    PushConstantBlock push_constants;
};

/// The resources of each named GLCompute entry point of a validated, host-order module, in the
/// order of `entry_names`. Throws SpirvError naming `display_name` if SPIRV-Cross fails.
std::vector<EntryPointResources> reflect_resources(std::span<const std::uint32_t> words,
                                                   const std::vector<std::string>& entry_names,
                                                   const std::string& display_name);

}  // namespace spvtune::vulkan::detail
