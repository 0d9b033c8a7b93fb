#pragma once

#include <cstdint>
#include <map>
#include <string>

#include <spvtune/vulkan/spirv_reflection.hpp>

#include "instructions.hpp"

// Integers a module computes from specialization constants with OpSpecConstantOp: built from
// the declarations at reflection, evaluated once the specialization values are known.
namespace spvtune::vulkan::detail {

/// The computation of constant `id`: its OpSpecConstantOp tree down to literals and
/// specialization constants. Throws SpirvError naming `what` for an operation spvtune does not
/// evaluate (the integer and boolean ones a size can need are supported) or an operand that is
/// not an integer or boolean constant.
SpecConstantComputation build_computation(const ModuleDeclarations& declarations, std::uint32_t id,
                                          const std::string& what, const std::string& display_name);

/// The root's value with the given specialization values (by SpecId; the defaults for the
/// others). Throws SpirvError naming `what` on division by zero or an out-of-range shift.
std::uint64_t evaluate(const SpecConstantComputation& computation,
                       const std::map<std::uint32_t, SpecializationValue>& values,
                       const std::string& what);

}  // namespace spvtune::vulkan::detail
