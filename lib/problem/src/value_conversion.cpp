#include "value_conversion.hpp"

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>

#include <spvtune/problem/expression_error.hpp>

namespace spvtune::problem::detail {
namespace {

[[noreturn]] void range_error(const Value& value, std::string_view expression,
                              const std::string& expected) {
    std::size_t length = 0;
    for (char c : expression) {
        length += (static_cast<unsigned char>(c) & 0xC0U) != 0x80U ? 1 : 0;
    }
    throw ExpressionError(
        std::string(expression), 1, length,
        "expected " + expected + ", got " + std::string(type_name(value)) + " " + to_string(value));
}

template <class T>
T integer_in_range(const Value& value, std::string_view expression, const char* type) {
    // The message is made only on the way out: a conversion that succeeds builds no string.
    const auto out_of_range = [&] {
        range_error(value, expression, std::string("an int in the range of ") + type);
    };
    const auto* i = std::get_if<std::int64_t>(&value);
    if (i == nullptr) {
        out_of_range();
    }
    if constexpr (std::is_unsigned_v<T>) {
        if (*i < 0 || static_cast<std::uint64_t>(*i) > std::numeric_limits<T>::max()) {
            out_of_range();
        }
    } else {
        if (*i < std::numeric_limits<T>::min() || *i > std::numeric_limits<T>::max()) {
            out_of_range();
        }
    }
    return static_cast<T>(*i);
}

double floating(const Value& value, std::string_view expression, bool single) {
    const auto* i = std::get_if<std::int64_t>(&value);
    const auto* d = std::get_if<double>(&value);
    if (i == nullptr && d == nullptr) {
        range_error(value, expression, single ? "a float32 number" : "a float64 number");
    }
    const double number = d != nullptr ? *d : static_cast<double>(*i);
    if (single && !std::isfinite(static_cast<float>(number))) {
        range_error(value, expression, "a number in the range of float32");
    }
    return number;
}

template <class T>
void put(std::vector<std::byte>& bytes, std::size_t offset, T value) {
    static_assert(std::endian::native == std::endian::little, "push constants are little-endian");
    std::memcpy(bytes.data() + offset, &value, sizeof value);
}

/// A number that float16 holds without overflowing to infinity.
double half_precision(const Value& value, std::string_view expression) {
    const double number = floating(value, expression, true);
    if (std::fabs(number) > vulkan::largest_finite(vulkan::ElementType::f16)) {
        range_error(value, expression, "a number in the range of float16 (|x| <= 65504)");
    }
    return number;
}

}  // namespace

vulkan::SpecializationValue to_specialization(const Value& value,
                                              const vulkan::SpecializationValue& declared,
                                              std::string_view expression) {
    return std::visit(
        [&](const auto& kind) -> vulkan::SpecializationValue {
            using T = std::decay_t<decltype(kind)>;
            if constexpr (std::is_same_v<T, bool>) {
                if (!std::holds_alternative<bool>(value)) {
                    range_error(value, expression, "a bool");
                }
                return std::get<bool>(value);
            } else if constexpr (std::is_same_v<T, float>) {
                return static_cast<float>(floating(value, expression, true));
            } else if constexpr (std::is_same_v<T, double>) {
                return floating(value, expression, false);
            } else if constexpr (std::is_same_v<T, std::int32_t>) {
                return integer_in_range<std::int32_t>(value, expression, "int32");
            } else if constexpr (std::is_same_v<T, std::uint32_t>) {
                return integer_in_range<std::uint32_t>(value, expression, "uint32");
            } else if constexpr (std::is_same_v<T, std::int64_t>) {
                return integer_in_range<std::int64_t>(value, expression, "int64");
            } else if constexpr (std::is_same_v<T, std::uint64_t>) {
                return integer_in_range<std::uint64_t>(value, expression, "uint64");
            } else if constexpr (std::is_same_v<T, std::int8_t>) {
                return integer_in_range<std::int8_t>(value, expression, "int8");
            } else if constexpr (std::is_same_v<T, std::uint8_t>) {
                return integer_in_range<std::uint8_t>(value, expression, "uint8");
            } else if constexpr (std::is_same_v<T, std::int16_t>) {
                return integer_in_range<std::int16_t>(value, expression, "int16");
            } else if constexpr (std::is_same_v<T, std::uint16_t>) {
                return integer_in_range<std::uint16_t>(value, expression, "uint16");
            } else {
                static_assert(std::is_same_v<T, vulkan::Float16>);
                return vulkan::Float16{
                    vulkan::float_to_half(static_cast<float>(half_precision(value, expression)))};
            }
        },
        declared);
}

void write_push_constant(std::vector<std::byte>& bytes, std::size_t offset,
                         vulkan::ElementType type, const Value& value,
                         std::string_view expression) {
    using vulkan::ElementType;
    switch (type) {
        case ElementType::f32:
            put(bytes, offset, static_cast<float>(floating(value, expression, true)));
            return;
        case ElementType::f64:
            put(bytes, offset, floating(value, expression, false));
            return;
        case ElementType::i32:
            put(bytes, offset, integer_in_range<std::int32_t>(value, expression, "i32"));
            return;
        case ElementType::u32:
            put(bytes, offset, integer_in_range<std::uint32_t>(value, expression, "u32"));
            return;
        case ElementType::i64:
            put(bytes, offset, integer_in_range<std::int64_t>(value, expression, "i64"));
            return;
        case ElementType::u64:
            put(bytes, offset, integer_in_range<std::uint64_t>(value, expression, "u64"));
            return;
        default:
            range_error(value, expression, "a push-constant type (f32 f64 i32 u32 i64 u64)");
    }
}

std::string magnitude_bound_text(vulkan::ElementType type) {
    char text[64];
    std::snprintf(text, sizeof text, "a magnitude at most %.17g", vulkan::largest_finite(type));
    return text;
}

}  // namespace spvtune::problem::detail
