#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/vulkan/host_data.hpp>

namespace host_data_test {

using namespace spvtune::vulkan;

TEST_CASE("fills are deterministic and follow their rule") {
    const auto a = make_fill(ElementType::f32, 1000, FillRandom{42, -2.0, 3.0});
    const auto b = make_fill(ElementType::f32, 1000, FillRandom{42, -2.0, 3.0});
    const auto c = make_fill(ElementType::f32, 1000, FillRandom{43, -2.0, 3.0});
    CHECK(a == b);
    CHECK(a != c);
    for (std::size_t i = 0; i < 1000; ++i) {
        const double value = read_element(ElementType::f32, a, i);
        CHECK(value >= -2.0);
        CHECK(value < 3.0);
    }

    const auto ints = make_fill(ElementType::i32, 2000, FillRandom{1, -3, 3});
    bool seen_low = false;
    bool seen_high = false;
    for (std::size_t i = 0; i < 2000; ++i) {
        const double value = read_element(ElementType::i32, ints, i);
        CHECK(value >= -3);
        CHECK(value <= 3);
        seen_low = seen_low || value == -3;
        seen_high = seen_high || value == 3;
    }
    CHECK(seen_low);  // the integer range is inclusive at both ends
    CHECK(seen_high);

    const auto iota = make_fill(ElementType::u32, 5, FillIota{10, 3});
    CHECK(read_element(ElementType::u32, iota, 4) == 22);
    const auto constant = make_fill(ElementType::f64, 3, FillConstant{0.1});
    CHECK(read_element(ElementType::f64, constant, 2) == 0.1);
    const auto zeros = make_fill(ElementType::u8, 7, FillZeros{});
    CHECK(zeros == std::vector<std::byte>(7));
}

namespace {

/// How many of `count` elements of a random fill over [-range, range) the type stores as a
/// subnormal (magnitude nonzero and below the smallest normal).
std::size_t subnormals(ElementType type, double range, bool denormals) {
    const std::size_t count = 4000;
    FillRandom fill{7, -range, range};
    fill.denormals = denormals;
    const auto bytes = make_fill(type, count, fill);
    const double smallest_normal = type == ElementType::f16
                                       ? 0x1.0p-14
                                       : static_cast<double>(std::numeric_limits<float>::min());
    std::size_t found = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const double value = std::abs(read_element(type, bytes, i));
        found += value != 0 && value < smallest_normal ? 1 : 0;
    }
    return found;
}

}  // namespace

TEST_CASE(
    "a fill written into memory the caller chose is make_fill's, up to its last whole element") {
    const Fill fills[] = {FillZeros{}, FillConstant{-1.5}, FillIota{3, 0.25}, FillRandom{9, -4, 4}};
    for (const Fill& fill : fills) {
        CAPTURE(fill.index());
        std::vector<std::byte> memory(10 * 4 + 3, std::byte{0x5a});
        fill_into(memory, ElementType::f32, fill);
        const auto made = make_fill(ElementType::f32, 10, fill);
        CHECK(std::equal(made.begin(), made.end(), memory.begin()));
        CHECK(std::all_of(memory.begin() + 40, memory.end(),
                          [](std::byte b) { return b == std::byte{0x5a}; }));
    }
}

TEST_CASE("random floats are never subnormal in their type unless denormals are asked for") {
    // Half of [-1e-4, 1e-4) lies below f16's smallest normal (6.1e-5), a tenth of
    // [-1e-37, 1e-37) below f32's (1.2e-38).
    CHECK(subnormals(ElementType::f16, 1e-4, false) == 0);
    CHECK(subnormals(ElementType::f16, 1e-4, true) > 1000);
    CHECK(subnormals(ElementType::f32, 1e-37, false) == 0);
    CHECK(subnormals(ElementType::f32, 1e-37, true) > 200);
    // The normal values are drawn as before: only the subnormal ones became zero.
    FillRandom kept{7, -1e-4, 1e-4};
    kept.denormals = true;
    const auto with = make_fill(ElementType::f16, 4000, kept);
    const auto without = make_fill(ElementType::f16, 4000, FillRandom{7, -1e-4, 1e-4});
    for (std::size_t i = 0; i < 4000; ++i) {
        const double value = read_element(ElementType::f16, with, i);
        CHECK(read_element(ElementType::f16, without, i) ==
              (std::abs(value) < 0x1.0p-14 ? 0.0 : value));
    }
}

TEST_CASE("integer fills clamp to the type's range") {
    const auto bytes = make_fill(ElementType::u8, 2, FillIota{-5, 300});
    CHECK(read_element(ElementType::u8, bytes, 0) == 0);
    CHECK(read_element(ElementType::u8, bytes, 1) == 255);
    CHECK(make_fill(ElementType::i8, 1, FillConstant{1000}) ==
          std::vector<std::byte>{std::byte{0x7f}});
}

TEST_CASE("element types parse by name and know their size") {
    CHECK(parse_element_type("f16") == ElementType::f16);
    CHECK(parse_element_type("u8") == ElementType::u8);
    CHECK_FALSE(parse_element_type("float").has_value());
    CHECK(element_size(ElementType::f64) == 8);
    CHECK(element_size(ElementType::i8) == 1);
    CHECK(to_string(ElementType::i32) == "i32");
}

TEST_CASE("a floating type knows its largest finite magnitude, the one its fills must keep to") {
    CHECK(largest_finite(ElementType::f16) == 65504.0);
    CHECK(largest_finite(ElementType::f32) == std::numeric_limits<float>::max());
    CHECK(largest_finite(ElementType::f64) == std::numeric_limits<double>::max());
    CHECK(largest_finite(ElementType::i32) == 0);
    // One step of f16 beyond it is infinity: 65504 is the edge, not a rounding of it.
    CHECK(std::isinf(
        read_element(ElementType::f16, make_fill(ElementType::f16, 1, FillConstant{65520.0}), 0)));
    CHECK(read_element(ElementType::f16, make_fill(ElementType::f16, 1, FillConstant{65504.0}),
                       0) == 65504.0);
}

TEST_CASE("half-precision conversion rounds to nearest even and keeps specials") {
    CHECK(float_to_half(1.0f) == 0x3c00);
    CHECK(float_to_half(-2.0f) == 0xc000);
    CHECK(float_to_half(65504.0f) == 0x7bff);
    CHECK(float_to_half(65520.0f) == 0x7c00);  // rounds up to infinity
    CHECK(float_to_half(std::numeric_limits<float>::infinity()) == 0x7c00);
    CHECK(std::isnan(half_to_float(float_to_half(std::nanf("")))));
    CHECK(float_to_half(5.960464477539063e-8f) == 0x0001);  // smallest subnormal
    CHECK(float_to_half(1.0f + 1.0f / 2048.0f) == 0x3c00);  // tie rounds to even
    for (std::uint32_t bits = 0; bits < 0x7c00; bits += 7) {
        const auto half = static_cast<std::uint16_t>(bits);
        CHECK(float_to_half(half_to_float(half)) == half);
    }
}

}  // namespace host_data_test
