#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

#include <spvtune/vulkan/host_data.hpp>

namespace spvtune::vulkan {
namespace {

struct TypeInfo {
    ElementType type;
    std::string_view name;
    std::size_t size;
};

constexpr std::array<TypeInfo, 11> types{{
    {ElementType::f16, "f16", 2},
    {ElementType::f32, "f32", 4},
    {ElementType::f64, "f64", 8},
    {ElementType::i8, "i8", 1},
    {ElementType::u8, "u8", 1},
    {ElementType::i16, "i16", 2},
    {ElementType::u16, "u16", 2},
    {ElementType::i32, "i32", 4},
    {ElementType::u32, "u32", 4},
    {ElementType::i64, "i64", 8},
    {ElementType::u64, "u64", 8},
}};

const TypeInfo& info(ElementType type) noexcept {
    return types[static_cast<std::size_t>(type)];
}

/// splitmix64: tiny, fast, and fully specified, unlike the standard engines' distributions.
class SplitMix64 {
  public:
    explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() noexcept {
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    /// Uniform in [0, 1) with 53 random bits.
    double unit() noexcept { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  private:
    std::uint64_t state_;
};

template <typename T>
void store(std::byte* out, T value) noexcept {
    std::memcpy(out, &value, sizeof value);
}

template <typename T>
T clamp_to(double value) noexcept {
    const double low = static_cast<double>(std::numeric_limits<T>::lowest());
    const double high = static_cast<double>(std::numeric_limits<T>::max());
    if (std::isnan(value)) {
        return T{};
    }
    return static_cast<T>(std::clamp(std::round(value), low, high));
}

/// Calls `body` with the writer of `type`'s elements, a callable (std::byte* out, double value)
/// that stores `value` at `out` as `type` (integers rounded and clamped to the type's range,
/// NaN as 0): chosen once, so that a loop over a buffer's elements does not choose it again
/// for each.
template <typename Body>
void with_writer(ElementType type, Body&& body) {
    switch (type) {
        case ElementType::f16:
            return body([](std::byte* out, double value) {
                store(out, float_to_half(static_cast<float>(value)));
            });
        case ElementType::f32:
            return body(
                [](std::byte* out, double value) { store(out, static_cast<float>(value)); });
        case ElementType::f64:
            return body([](std::byte* out, double value) { store(out, value); });
        case ElementType::i8:
            return body(
                [](std::byte* out, double value) { store(out, clamp_to<std::int8_t>(value)); });
        case ElementType::u8:
            return body(
                [](std::byte* out, double value) { store(out, clamp_to<std::uint8_t>(value)); });
        case ElementType::i16:
            return body(
                [](std::byte* out, double value) { store(out, clamp_to<std::int16_t>(value)); });
        case ElementType::u16:
            return body(
                [](std::byte* out, double value) { store(out, clamp_to<std::uint16_t>(value)); });
        case ElementType::i32:
            return body(
                [](std::byte* out, double value) { store(out, clamp_to<std::int32_t>(value)); });
        case ElementType::u32:
            return body(
                [](std::byte* out, double value) { store(out, clamp_to<std::uint32_t>(value)); });
        case ElementType::i64:
            return body(
                [](std::byte* out, double value) { store(out, clamp_to<std::int64_t>(value)); });
        case ElementType::u64:
            return body(
                [](std::byte* out, double value) { store(out, clamp_to<std::uint64_t>(value)); });
    }
}

/// The smallest positive normal value of a floating element type.
double smallest_normal(ElementType type) noexcept {
    switch (type) {
        case ElementType::f16:
            return 0x1.0p-14;
        case ElementType::f32:
            return static_cast<double>(std::numeric_limits<float>::min());
        default:
            return std::numeric_limits<double>::min();
    }
}

template <typename T>
double load(const std::byte* in) noexcept {
    T value;
    std::memcpy(&value, in, sizeof value);
    return static_cast<double>(value);
}

}  // namespace

std::size_t element_size(ElementType type) noexcept {
    return info(type).size;
}

bool is_floating(ElementType type) noexcept {
    return type == ElementType::f16 || type == ElementType::f32 || type == ElementType::f64;
}

double largest_finite(ElementType type) noexcept {
    switch (type) {
        case ElementType::f16:
            return 65504.0;
        case ElementType::f32:
            return std::numeric_limits<float>::max();
        case ElementType::f64:
            return std::numeric_limits<double>::max();
        default:
            return 0;
    }
}

std::string_view to_string(ElementType type) noexcept {
    return info(type).name;
}

std::optional<ElementType> parse_element_type(std::string_view name) noexcept {
    for (const auto& entry : types) {
        if (entry.name == name) {
            return entry.type;
        }
    }
    return std::nullopt;
}

void fill_into(std::span<std::byte> elements, ElementType type, const Fill& fill) {
    const std::size_t size = element_size(type);
    const std::size_t count = elements.size() / size;
    if (std::holds_alternative<FillZeros>(fill)) {
        std::fill_n(elements.begin(), count * size, std::byte{0});
        return;
    }
    // The fill and the element type are chosen once, outside the loop over the elements: a
    // buffer of a million took 5 ms of a key's setup when each element chose both again.
    with_writer(type, [&](auto write) {
        std::byte* out = elements.data();
        if (const auto* constant = std::get_if<FillConstant>(&fill)) {
            for (std::size_t i = 0; i < count; ++i) {
                write(out + i * size, constant->value);
            }
        } else if (const auto* iota = std::get_if<FillIota>(&fill)) {
            for (std::size_t i = 0; i < count; ++i) {
                write(out + i * size, iota->start + iota->step * static_cast<double>(i));
            }
        } else {
            const auto& range = std::get<FillRandom>(fill);
            SplitMix64 random(range.seed);
            if (is_floating(type)) {
                const double normal = smallest_normal(type);
                for (std::size_t i = 0; i < count; ++i) {
                    double value = range.low + (range.high - range.low) * random.unit();
                    if (!range.denormals && std::abs(value) < normal) {
                        value = 0;
                    }
                    write(out + i * size, value);
                }
            } else {
                // Inclusive integer range: floor over [low, high + 1).
                for (std::size_t i = 0; i < count; ++i) {
                    write(out + i * size,
                          std::floor(range.low + (range.high - range.low + 1) * random.unit()));
                }
            }
        }
    });
}

std::vector<std::byte> make_fill(ElementType type, std::size_t count, const Fill& fill) {
    std::vector<std::byte> bytes(count * element_size(type));
    if (!std::holds_alternative<FillZeros>(fill)) {
        fill_into(bytes, type, fill);
    }
    return bytes;
}

double read_element(ElementType type, std::span<const std::byte> bytes, std::size_t index) {
    const std::size_t size = element_size(type);
    if ((index + 1) * size > bytes.size()) {
        throw std::out_of_range("element " + std::to_string(index) + " is past the end of " +
                                std::to_string(bytes.size()) + " bytes");
    }
    const std::byte* in = bytes.data() + index * size;
    switch (type) {
        case ElementType::f16: {
            std::uint16_t bits;
            std::memcpy(&bits, in, sizeof bits);
            return half_to_float(bits);
        }
        case ElementType::f32:
            return load<float>(in);
        case ElementType::f64:
            return load<double>(in);
        case ElementType::i8:
            return load<std::int8_t>(in);
        case ElementType::u8:
            return load<std::uint8_t>(in);
        case ElementType::i16:
            return load<std::int16_t>(in);
        case ElementType::u16:
            return load<std::uint16_t>(in);
        case ElementType::i32:
            return load<std::int32_t>(in);
        case ElementType::u32:
            return load<std::uint32_t>(in);
        case ElementType::i64:
            return load<std::int64_t>(in);
        case ElementType::u64:
            return load<std::uint64_t>(in);
    }
    return 0;
}

std::uint16_t float_to_half(float value) noexcept {
    const auto bits = std::bit_cast<std::uint32_t>(value);
    const auto sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000U);
    const std::uint32_t exponent = (bits >> 23) & 0xffU;
    std::uint32_t mantissa = bits & 0x7fffffU;

    if (exponent == 0xff) {  // inf or NaN; keep NaN a NaN
        return static_cast<std::uint16_t>(sign | 0x7c00U | (mantissa != 0 ? 0x200U : 0U));
    }
    const int half_exponent = static_cast<int>(exponent) - 127 + 15;
    if (half_exponent >= 0x1f) {
        return static_cast<std::uint16_t>(sign | 0x7c00U);
    }
    if (half_exponent <= 0) {  // subnormal or zero in half precision
        if (half_exponent < -10) {
            return sign;
        }
        mantissa |= 0x800000U;
        const auto shift = static_cast<std::uint32_t>(14 - half_exponent);
        std::uint32_t half_mantissa = mantissa >> shift;
        const std::uint32_t remainder = mantissa & ((1U << shift) - 1);
        const std::uint32_t halfway = 1U << (shift - 1);
        if (remainder > halfway || (remainder == halfway && (half_mantissa & 1U) != 0)) {
            ++half_mantissa;
        }
        return static_cast<std::uint16_t>(sign | half_mantissa);
    }
    std::uint32_t half = (static_cast<std::uint32_t>(half_exponent) << 10) | (mantissa >> 13);
    const std::uint32_t remainder = mantissa & 0x1fffU;
    if (remainder > 0x1000U || (remainder == 0x1000U && (half & 1U) != 0)) {
        ++half;  // may carry into the exponent, which correctly rounds up to infinity
    }
    return static_cast<std::uint16_t>(sign | half);
}

float half_to_float(std::uint16_t bits) noexcept {
    const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000U) << 16;
    const std::uint32_t exponent = (bits >> 10) & 0x1fU;
    const std::uint32_t mantissa = bits & 0x3ffU;
    if (exponent == 0) {
        const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
        return sign != 0 ? -magnitude : magnitude;
    }
    if (exponent == 0x1f) {
        return std::bit_cast<float>(sign | 0x7f800000U | (mantissa << 13));
    }
    return std::bit_cast<float>(sign | ((exponent - 15 + 127) << 23) | (mantissa << 13));
}

}  // namespace spvtune::vulkan
