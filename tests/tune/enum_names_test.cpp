#include <string_view>

#include <doctest/doctest.h>

#include <spvtune/base/enum_names.hpp>

using namespace spvtune;

namespace {

enum class Colour { red, green, blue, unnamed };

// `unnamed` is left out on purpose: a value the table lacks.
constexpr base::EnumNames<Colour, 3> colour_names{{
    {Colour::red, "red"},
    {Colour::green, "green"},
    {Colour::blue, "light blue"},
}};

}  // namespace

TEST_CASE("every entry of a name table reads back as its enumerator") {
    for (const auto& [value, name] : colour_names) {
        CAPTURE(name);
        CHECK(base::name_of(colour_names, value) == name);
        CHECK(base::enum_from(colour_names, name) == value);
    }
    static_assert(base::enum_from(colour_names, "green") == Colour::green);
}

TEST_CASE("a name table answers nullopt or the fallback for what it lacks") {
    CHECK_FALSE(base::enum_from(colour_names, "purple").has_value());
    CHECK_FALSE(base::enum_from(colour_names, "").has_value());
    CHECK_FALSE(base::enum_from(colour_names, "Red").has_value());
    CHECK_FALSE(base::enum_from(colour_names, "light").has_value());
    CHECK_FALSE(base::find_name(colour_names, Colour::unnamed).has_value());
    CHECK(base::name_of(colour_names, Colour::unnamed) == "unknown");
    CHECK(base::name_of(colour_names, Colour::unnamed, "?") == "?");
}
