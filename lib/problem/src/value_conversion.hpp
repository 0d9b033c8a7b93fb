#pragma once

// Expression values into the typed values Vulkan takes: specialization constants of the type the
// shader declares, push-constant bytes. A wrong type or an out-of-range value throws an
// ExpressionError spanning the whole expression (the value is the result of all of it).

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <spvtune/problem/value.hpp>
#include <spvtune/vulkan/host_data.hpp>
#include <spvtune/vulkan/spirv_reflection.hpp>

namespace spvtune::problem::detail {

/// `value` as the type `declared` holds: bool from bool; integer types from an int in range;
/// float types from an int or float (float32 must stay finite).
vulkan::SpecializationValue to_specialization(const Value& value,
                                              const vulkan::SpecializationValue& declared,
                                              std::string_view expression);

/// Writes `value` as `type` (f32 f64 i32 u32 i64 u64) little-endian at `offset` of `bytes`,
/// which must be large enough.
void write_push_constant(std::vector<std::byte>& bytes, std::size_t offset,
                         vulkan::ElementType type, const Value& value, std::string_view expression);

/// "a magnitude at most X" for a floating type, X its largest finite value written exactly
/// (seventeen significant digits), so the bound a message names is itself accepted: f32's
/// usual nine-digit 3.40282347e+38 lies above it.
std::string magnitude_bound_text(vulkan::ElementType type);

}  // namespace spvtune::problem::detail
