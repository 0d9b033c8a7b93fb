#pragma once

#include <array>
#include <string>
#include <vector>

#include <spvtune/vulkan/spirv_reflection.hpp>

#include "instructions.hpp"

// Specialization constants and workgroup sizes, resolved from a module's declarations.
namespace spvtune::vulkan::detail {

/// Every SpecId of the module with its type, default and debug name, ordered by SpecId.
std::vector<SpecializationConstant> reflect_specialization_constants(
    const ModuleDeclarations& declarations, const std::string& display_name);

/// The workgroup size of a compute entry point, following SPIR-V's precedence: the constant
/// decorated BuiltIn WorkgroupSize, then LocalSizeId, then LocalSize.
std::array<WorkgroupDimension, 3> reflect_workgroup_size(const ModuleDeclarations& declarations,
                                                         const EntryPointDeclaration& entry,
                                                         const std::string& display_name);

}  // namespace spvtune::vulkan::detail
