#include <doctest/doctest.h>

#include <spvtune/problem/expression.hpp>

#include "problem/expression_helpers.hpp"

namespace expression_functions_test {

using spvtune::problem::testing::evaluation_error_of;
using spvtune::problem::testing::show;

TEST_CASE("min and max take two or more numbers") {
    CHECK(show("min(3, 1, 2)") == "1");
    CHECK(show("max(3, 1, 2)") == "3");
    CHECK(show("min(-4, 2)") == "-4");
    CHECK(show("min(2, 2.5)") == "2.0");  // a float argument makes the result a float
    CHECK(show("max(2, 2.5)") == "2.5");
    CHECK(show("max(min(8, 4), 2)") == "4");
    CHECK(evaluation_error_of("min(1, true)") ==
          "column 1: min: second argument must be a number, got bool");
    CHECK(evaluation_error_of("max(1, 2, \"x\")") ==
          "column 1: max: argument 3 must be a number, got string");
}

TEST_CASE("ceil_div rounds up for a positive divisor") {
    CHECK(show("ceil_div(10, 4)") == "3");
    CHECK(show("ceil_div(8, 4)") == "2");
    CHECK(show("ceil_div(0, 4)") == "0");
    CHECK(show("ceil_div(-10, 4)") == "-2");
    CHECK(show("ceil_div(9223372036854775807, 2)") == "4611686018427387904");
    CHECK(evaluation_error_of("ceil_div(10, 0)") ==
          "column 1: ceil_div: divisor must be positive, got 0");
    CHECK(evaluation_error_of("ceil_div(10, -2)") ==
          "column 1: ceil_div: divisor must be positive, got -2");
    CHECK(evaluation_error_of("ceil_div(10.0, 4)") ==
          "column 1: ceil_div: first argument must be an int, got float");
}

TEST_CASE("ceil_log2 is the exponent of the next power of two, for pass counts") {
    CHECK(show("ceil_log2(1)") == "0");
    CHECK(show("ceil_log2(2)") == "1");
    CHECK(show("ceil_log2(1000)") == "10");
    CHECK(show("ceil_log2(1024)") == "10");
    CHECK(show("ceil_log2(1025)") == "11");
    CHECK(show("ceil_log2(9223372036854775807)") == "63");
    CHECK(evaluation_error_of("ceil_log2(0)") ==
          "column 1: ceil_log2: argument must be positive, got 0");
    CHECK(evaluation_error_of("ceil_log2(2.0)").find("ceil_log2") != std::string::npos);
}

TEST_CASE("pow2 and log2") {
    CHECK(show("pow2(0)") == "1");
    CHECK(show("pow2(10)") == "1024");
    CHECK(show("pow2(62)") == "4611686018427387904");
    CHECK(evaluation_error_of("pow2(63)") == "column 1: pow2: exponent must be in 0..62, got 63");
    CHECK(evaluation_error_of("pow2(-1)") == "column 1: pow2: exponent must be in 0..62, got -1");
    CHECK(evaluation_error_of("pow2(2.0)") ==
          "column 1: pow2: first argument must be an int, got float");

    CHECK(show("log2(1)") == "0");
    CHECK(show("log2(1024)") == "10");
    CHECK(show("log2(1023)") == "9");  // floor for ints
    CHECK(show("log2(9223372036854775807)") == "62");
    CHECK(show("log2(8.0)") == "3.0");
    CHECK(show("log2(0.5)") == "-1.0");
    CHECK(evaluation_error_of("log2(0)") == "column 1: log2: argument must be positive, got 0");
    CHECK(evaluation_error_of("log2(-8)") == "column 1: log2: argument must be positive, got -8");
    CHECK(evaluation_error_of("log2(-0.5)") ==
          "column 1: log2: argument must be positive, got -0.5");
}

TEST_CASE("abs, floor, ceil, round, int and float") {
    CHECK(show("abs(-3)") == "3");
    CHECK(show("abs(3)") == "3");
    CHECK(show("abs(-2.5)") == "2.5");
    CHECK(evaluation_error_of("abs(-9223372036854775808)") == "column 1: integer overflow in abs");

    CHECK(show("floor(2.7)") == "2");
    CHECK(show("floor(-2.5)") == "-3");
    CHECK(show("ceil(2.1)") == "3");
    CHECK(show("ceil(-2.5)") == "-2");
    CHECK(show("round(2.5)") == "3");
    CHECK(show("round(-2.5)") == "-3");  // halves away from zero
    CHECK(show("round(2.4)") == "2");
    CHECK(show("int(2.9)") == "2");
    CHECK(show("int(-2.9)") == "-2");  // truncates
    CHECK(show("floor(7)") == "7");    // an int passes through
    CHECK(show("int(7)") == "7");
    CHECK(evaluation_error_of("floor(1e300)") ==
          "column 1: floor result out of the 64-bit integer range");
    CHECK(evaluation_error_of("int(true)") ==
          "column 1: int: first argument must be a number, got bool");

    CHECK(show("float(3)") == "3.0");
    CHECK(show("float(3) / 2") == "1.5");
    CHECK(show("float(2.5)") == "2.5");
    CHECK(evaluation_error_of("float(\"3\")") ==
          "column 1: float: first argument must be a number, got string");
}

TEST_CASE("pow, exp, log and sqrt are real-valued") {
    CHECK(show("pow(2, 10)") == "1024.0");            // a float even from ints
    CHECK(show("pow(2.0, -8.0 * 2 / 8)") == "0.25");  // an ALiBi slope from key values
    CHECK(show("pow(-2, 3)") == "-8.0");
    CHECK(show("exp(0)") == "1.0");
    CHECK(show("log(1)") == "0.0");
    CHECK(show("sqrt(2.25)") == "1.5");
    CHECK(show("floor(sqrt(10))") == "3");  // back to an int
    CHECK(show("ceil(log(8) / log(2))") == "3");
    CHECK(evaluation_error_of("pow(-2, 0.5)") ==
          "column 1: pow: a negative base needs a whole exponent, got 0.5");
    CHECK(evaluation_error_of("pow(10, 400)") ==
          "column 1: pow: the result is not a finite number");
    CHECK(evaluation_error_of("exp(1000)") == "column 1: exp: the result is not a finite number");
    CHECK(evaluation_error_of("log(0)") == "column 1: log: argument must be positive, got 0");
    CHECK(evaluation_error_of("sqrt(-1.5)") ==
          "column 1: sqrt: argument must be at least 0, got -1.5");
    CHECK(evaluation_error_of("sqrt(\"4\")") ==
          "column 1: sqrt: first argument must be a number, got string");
}

TEST_CASE("function errors point at the function, also when nested") {
    CHECK(evaluation_error_of("1 + ceil_div(4, 2 - 2)") ==
          "column 5: ceil_div: divisor must be positive, got 0");
    CHECK(evaluation_error_of("max(1, log2(0))") ==
          "column 8: log2: argument must be positive, got 0");
}

}  // namespace expression_functions_test
