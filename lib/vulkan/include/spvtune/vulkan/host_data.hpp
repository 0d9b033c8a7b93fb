#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <variant>
#include <vector>

namespace spvtune::vulkan {

/// Element types a buffer can hold.
enum class ElementType { f16, f32, f64, i8, u8, i16, u16, i32, u32, i64, u64 };

std::size_t element_size(ElementType type) noexcept;
bool is_floating(ElementType type) noexcept;
/// The largest finite magnitude a floating type holds (65504 for f16); 0 for an integer type.
double largest_finite(ElementType type) noexcept;
std::string_view to_string(ElementType type) noexcept;
std::optional<ElementType> parse_element_type(std::string_view name) noexcept;

/// Deterministic initial contents for a buffer. The same fill gives the same bytes on every
/// machine (own PRNG, no std distributions), so every candidate sees identical inputs.
struct FillZeros {};
struct FillConstant {
    double value = 0;
};
struct FillIota {
    double start = 0;
    double step = 1;
};
/// Uniform in [low, high) for floating types, in [low, high] for integer types. A float the
/// element type would store as a subnormal becomes 0 unless `denormals`: many devices flush
/// them, and a kernel's speed on them measures the device's slow path, not the kernel.
struct FillRandom {
    std::uint64_t seed = 0;
    double low = 0;
    double high = 1;
    bool denormals = false;
};
using Fill = std::variant<FillZeros, FillConstant, FillIota, FillRandom>;

/// `count` elements of `type` following `fill`, as raw little-endian bytes. Values out of an
/// integer type's range are clamped to it.
std::vector<std::byte> make_fill(ElementType type, std::size_t count, const Fill& fill);
/// Writes `fill` over the whole elements of `type` that `elements` holds (make_fill's bytes, in
/// memory the caller chose); bytes past the last whole element stay as they are.
void fill_into(std::span<std::byte> elements, ElementType type, const Fill& fill);

/// Element `index` of `bytes` read as `type`, widened to double (for comparisons and reports).
double read_element(ElementType type, std::span<const std::byte> bytes, std::size_t index);

/// IEEE binary16 conversions, round-to-nearest-even.
std::uint16_t float_to_half(float value) noexcept;
float half_to_float(std::uint16_t bits) noexcept;

}  // namespace spvtune::vulkan
