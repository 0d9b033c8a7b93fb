#include <cstdint>
#include <limits>
#include <string>

#include <doctest/doctest.h>

#include <spvtune/problem/expression.hpp>

namespace value_test {

using namespace spvtune::problem;

namespace {

std::string conversion_error(void (*convert)(const Value&, std::string_view), const Value& value,
                             std::string_view expression) {
    try {
        convert(value, expression);
    } catch (const ExpressionError& error) {
        return error.render();
    }
    return "no error";
}

}  // namespace

TEST_CASE("type names and text of values") {
    CHECK(type_name(Value{std::int64_t{1}}) == "int");
    CHECK(type_name(Value{1.0}) == "float");
    CHECK(type_name(Value{true}) == "bool");
    CHECK(type_name(Value{std::string("x")}) == "string");

    CHECK(to_string(Value{std::int64_t{-42}}) == "-42");
    CHECK(to_string(Value{std::numeric_limits<std::int64_t>::min()}) == "-9223372036854775808");
    CHECK(to_string(Value{2.0}) == "2.0");
    CHECK(to_string(Value{0.1}) == "0.1");
    CHECK(to_string(Value{-0.5}) == "-0.5");
    CHECK(to_string(Value{1e300}) == "1e+300");
    CHECK(to_string(Value{false}) == "false");
    CHECK(to_string(Value{std::string("f32")}) == "\"f32\"");
    CHECK(to_string(Value{std::string("a\"b\\c")}) == "\"a\\\"b\\\\c\"");
}

TEST_CASE("to_string of a value parses back to the same value") {
    for (const Value& value : {Value{std::int64_t{7}}, Value{0.1}, Value{3.0}, Value{1e-7},
                               Value{true}, Value{std::string("q\"\\")}}) {
        CHECK(Expression::parse(to_string(value)).evaluate({}) == value);
    }
}

TEST_CASE("checked conversions accept exactly their type and range") {
    CHECK(as_int(Value{std::int64_t{-5}}, "x") == -5);
    CHECK(as_uint32(Value{std::int64_t{0}}, "x") == 0U);
    CHECK(as_uint32(Value{std::int64_t{4294967295}}, "x") == 4294967295U);
    CHECK(as_double(Value{2.5}, "x") == 2.5);
    CHECK(as_double(Value{std::int64_t{3}}, "x") == 3.0);
    CHECK(as_bool(Value{true}, "x"));

    auto int_of = [](const Value& v, std::string_view e) { as_int(v, e); };
    auto uint32_of = [](const Value& v, std::string_view e) { as_uint32(v, e); };
    auto double_of = [](const Value& v, std::string_view e) { as_double(v, e); };
    auto bool_of = [](const Value& v, std::string_view e) { as_bool(v, e); };

    // The whole expression is underlined: the value is the result of all of it.
    CHECK(conversion_error(int_of, Value{2.0}, "n / 2.0") ==
          "n / 2.0\n^~~~~~~ expected an int, got float 2.0");
    CHECK(conversion_error(uint32_of, Value{std::int64_t{4294967296}}, "pow2(32)") ==
          "pow2(32)\n^~~~~~~~ expected an int in 0..4294967295, got int 4294967296");
    CHECK(conversion_error(uint32_of, Value{std::int64_t{-1}}, "n - 3") ==
          "n - 3\n^~~~~ expected an int in 0..4294967295, got int -1");
    CHECK(conversion_error(uint32_of, Value{1.0}, "1.0") ==
          "1.0\n^~~ expected an int in 0..4294967295, got float 1.0");
    CHECK(conversion_error(double_of, Value{true}, "a < b") ==
          "a < b\n^~~~~ expected a number, got bool true");
    CHECK(conversion_error(bool_of, Value{std::int64_t{1}}, "n % 2") ==
          "n % 2\n^~~~~ expected a bool, got int 1");
    CHECK(conversion_error(bool_of, Value{std::string("f32")}, "dtype") ==
          "dtype\n^~~~~ expected a bool, got string \"f32\"");
}

}  // namespace value_test
