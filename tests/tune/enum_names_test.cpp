#include <string>
#include <string_view>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <spvtune/base/enum_names.hpp>
#include <spvtune/tune/events.hpp>
#include <spvtune/tune/sampling.hpp>
#include <spvtune/tune/tune_entry.hpp>
#include <spvtune/tune/tune_error.hpp>

namespace enum_names_test {

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

// nlohmann would write an enum without a declared spelling as its number.
static_assert(base::JsonSpelled<tune::FailureKind, nlohmann::json>);
static_assert(!base::JsonSpelled<Colour, nlohmann::json>);

TEST_CASE("enum_from_json accepts exactly the NLOHMANN_JSON_SERIALIZE_ENUM spellings") {
    for (const auto kind :
         {tune::FailureKind::error, tune::FailureKind::wrong_output, tune::FailureKind::skipped}) {
        CHECK(base::enum_from_json<tune::FailureKind>(nlohmann::json(kind)) == kind);
    }
    CHECK(base::enum_from_json<tune::TimingMethod>(nlohmann::json("host_clock")) ==
          tune::TimingMethod::host_clock);
    CHECK(base::enum_from_json<tune::SamplingMode>(nlohmann::json("fixed")) ==
          tune::SamplingMode::fixed);
    // nlohmann alone would read each of these as the table's first entry.
    CHECK_FALSE(
        base::enum_from_json<tune::FailureKind>(nlohmann::json("wrong output")).has_value());
    CHECK_FALSE(base::enum_from_json<tune::FailureKind>(nlohmann::json("")).has_value());
    CHECK_FALSE(base::enum_from_json<tune::FailureKind>(nlohmann::json(0)).has_value());
    CHECK_FALSE(base::enum_from_json<tune::FailureKind>(nlohmann::json()).has_value());
    CHECK_FALSE(base::enum_from_json<tune::TimingMethod>(nlohmann::json("Host_clock")).has_value());
}

TEST_CASE("a failure kind's displayed name is its cache spelling with spaces") {
    CHECK(nlohmann::json(tune::FailureKind::wrong_output) == "wrong_output");
    CHECK(tune::failure_kind_name(tune::FailureKind::wrong_output) == "wrong output");
    CHECK(tune::failure_kind_name(tune::FailureKind::skipped) == "skipped");
}

}  // namespace enum_names_test
