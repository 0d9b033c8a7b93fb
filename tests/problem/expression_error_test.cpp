#include <cstdint>
#include <string>

#include <doctest/doctest.h>

#include <spvtune/problem/expression.hpp>

#include "problem/expression_helpers.hpp"

namespace expression_error_test {

using namespace spvtune::problem;
using spvtune::problem::testing::evaluation_error_of;
using spvtune::problem::testing::parse_error_of;

namespace {

Scope tile_scope() {
    Scope scope;
    scope.set("n", std::int64_t{2}).set("TILE", std::int64_t{16}).set("VEC", std::int64_t{4});
    return scope;
}

ExpressionError caught(std::string_view text, const Scope& scope = {}) {
    try {
        Expression::parse(text).evaluate(scope);
    } catch (const ExpressionError& error) {
        return error;
    }
    FAIL("expected an ExpressionError from " << text);
    return ExpressionError("", 1, 1, "unreachable");
}

std::string repeated(std::string_view piece, std::size_t count) {
    std::string text;
    for (std::size_t i = 0; i < count; ++i) {
        text += piece;
    }
    return text;
}

}  // namespace

TEST_CASE("syntax errors name what was expected and point at the column") {
    CHECK(parse_error_of("(1 + 2") ==
          "column 7: expected ')' to close the '(' at column 1, found end of expression");
    CHECK(parse_error_of("n * (4 + 2") ==
          "column 11: expected ')' to close the '(' at column 5, found end of expression");
    CHECK(parse_error_of("min(1, 2") ==
          "column 9: expected ',' or ')' in the arguments of 'min', found end of expression");
    CHECK(parse_error_of("min(1 2)") ==
          "column 7: expected ',' or ')' in the arguments of 'min', found '2'");
    CHECK(parse_error_of("a ? 1") ==
          "column 6: expected ':' of the '?' at column 3, found end of expression");
    CHECK(parse_error_of("1 + 2 3") ==
          "column 7: unexpected token '3' after a complete expression");
    CHECK(parse_error_of("(1 + 2))") ==
          "column 8: unexpected token ')' after a complete expression");
    CHECK(parse_error_of("* 3") == "column 1: unexpected token '*', expected a value");
    CHECK(parse_error_of("1 + * 3") == "column 5: unexpected token '*', expected a value");
    CHECK(
        parse_error_of("f(,)") ==
        "column 1: unknown function 'f'; functions: abs, ceil, "
        "ceil_div, ceil_log2, exp, float, floor, int, log, log2, max, min, pow, pow2, round, sqrt");
    CHECK(parse_error_of("1 +") == "column 4: unexpected end of expression, expected a value");
    CHECK(parse_error_of("") == "column 1: unexpected end of expression, expected a value");
    CHECK(parse_error_of("   ") == "column 4: unexpected end of expression, expected a value");
    CHECK(parse_error_of("()") == "column 2: unexpected token ')', expected a value");
}

TEST_CASE("lexical errors: bad characters, numbers and strings") {
    CHECK(parse_error_of("n # 2") == "column 3: unexpected character '#'");
    CHECK(parse_error_of("n = 2") == "column 3: unexpected '=' (did you mean '=='?)");
    CHECK(parse_error_of("a & b") == "column 3: unexpected '&' (did you mean '&&'?)");
    CHECK(parse_error_of("a | b") == "column 3: unexpected '|' (did you mean '||'?)");
    CHECK(parse_error_of("n \xC3\x97 2") == "column 3: unexpected character '\xC3\x97'");
    // Columns count characters: the two-byte 'é' is one column.
    CHECK(parse_error_of("\"\xC3\xA9\" == $") == "column 8: unexpected character '$'");

    CHECK(parse_error_of("dtype == \"f32") == "column 10: unterminated string");
    CHECK(parse_error_of("\"") == "column 1: unterminated string");
    CHECK(parse_error_of("\"a\\\"") == "column 1: unterminated string");  // the quote is escaped
    CHECK(parse_error_of("\"a\\n\"") ==
          "column 3: unknown escape in string (only \\\" and \\\\ are allowed)");

    CHECK(parse_error_of("4n") == "column 1: malformed number '4n'");
    CHECK(parse_error_of("1 + 0x") == "column 5: malformed number '0x'");
    CHECK(parse_error_of("0xfg") == "column 1: malformed number '0xfg'");
    CHECK(parse_error_of("1e+") == "column 1: malformed number '1e+'");
    CHECK(parse_error_of("1.2.3") == "column 1: malformed number '1.2.3'");
    CHECK(parse_error_of("9223372036854775808") ==
          "column 1: integer literal 9223372036854775808 is out of range (64-bit signed "
          "integers)");
    CHECK(parse_error_of("1 - 9223372036854775808") ==
          "column 5: integer literal 9223372036854775808 is out of range (64-bit signed "
          "integers)");
    CHECK(parse_error_of("99999999999999999999") ==
          "column 1: integer literal 99999999999999999999 is out of range (64-bit signed "
          "integers)");
    CHECK(parse_error_of("0x10000000000000000") ==
          "column 1: integer literal 0x10000000000000000 is out of range (64-bit signed "
          "integers)");
    CHECK(parse_error_of("1e999") == "column 1: float literal 1e999 is out of range");
}

TEST_CASE("unknown functions and wrong argument counts are caught when parsing") {
    CHECK(
        parse_error_of("mni(1, 2)") ==
        "column 1: unknown function 'mni' (did you mean 'min'?); functions: abs, ceil, "
        "ceil_div, ceil_log2, exp, float, floor, int, log, log2, max, min, pow, pow2, round, sqrt");
    CHECK(
        parse_error_of("n + ceil_dvi(n, 4)") ==
        "column 5: unknown function 'ceil_dvi' (did you mean 'ceil_div'?); functions: abs, "
        "ceil, ceil_div, ceil_log2, exp, float, floor, int, log, log2, max, min, pow, pow2, round, "
        "sqrt");
    CHECK(parse_error_of("ceil_div(1)") == "column 1: 'ceil_div' takes 2 arguments, got 1");
    CHECK(parse_error_of("1 + pow2(1, 2)") == "column 5: 'pow2' takes 1 argument, got 2");
    CHECK(parse_error_of("abs()") == "column 1: 'abs' takes 1 argument, got 0");
    CHECK(parse_error_of("min(1)") == "column 1: 'min' takes 2 or more arguments, got 1");
    // Even in a branch that would never be evaluated.
    CHECK(parse_error_of("false && log2(1, 2) > 0") == "column 10: 'log2' takes 1 argument, got 2");
}

TEST_CASE("evaluation errors point at the operator that failed") {
    Scope scope = tile_scope();
    CHECK(evaluation_error_of("n * 4 / (TILE - 16)", scope) == "column 7: division by zero");
    CHECK(evaluation_error_of("7 % 0") == "column 3: modulo by zero");
    CHECK(evaluation_error_of("1.5 / 0") == "column 5: division by zero");
    CHECK(evaluation_error_of("1 / 0.0") == "column 3: division by zero");
    CHECK(evaluation_error_of("9223372036854775807 + 1") == "column 21: integer overflow in '+'");
    CHECK(evaluation_error_of("-9223372036854775807 - 2") == "column 22: integer overflow in '-'");
    CHECK(evaluation_error_of("pow2(62) * 2") == "column 10: integer overflow in '*'");
    CHECK(evaluation_error_of("-(-9223372036854775807 - 1)") ==
          "column 1: integer overflow in '-'");
    CHECK(evaluation_error_of("(-9223372036854775807 - 1) / -1") ==
          "column 28: integer overflow in '/'");
    CHECK(evaluation_error_of("1e308 * 10") == "column 7: float result out of range");
}

TEST_CASE("mixing types is an error at the operator") {
    CHECK(evaluation_error_of("true + 1") == "column 6: '+' needs numbers, got bool and int");
    CHECK(evaluation_error_of("\"a\" < 3") == "column 5: '<' needs numbers, got string and int");
    CHECK(evaluation_error_of("\"a\" * \"b\"") ==
          "column 5: '*' needs numbers, got string and string");
    CHECK(evaluation_error_of("7.5 % 2") == "column 5: '%' needs integers, got float and int");
    CHECK(evaluation_error_of("1 == true") == "column 3: '==' cannot compare int with bool");
    CHECK(evaluation_error_of("\"a\" != 1") == "column 5: '!=' cannot compare string with int");
    CHECK(evaluation_error_of("-true") == "column 1: '-' needs a number, got bool");
    CHECK(evaluation_error_of("!1") == "column 1: '!' needs a bool, got int");
    CHECK(evaluation_error_of("1 && true") == "column 3: '&&' needs a bool, got int");
    CHECK(evaluation_error_of("false || 2") == "column 7: '||' needs a bool, got int");
    CHECK(evaluation_error_of("1 ? 2 : 3") ==
          "column 3: the condition of '?' needs a bool, got int");
    // No C-style chained comparison: (1 < 2) < 3 compares a bool with an int.
    CHECK(evaluation_error_of("1 < 2 < 3") == "column 7: '<' needs numbers, got bool and int");
}

TEST_CASE("unknown variables are named with the known names and a suggestion") {
    Scope scope = tile_scope();
    CHECK(evaluation_error_of("TILES * 2", scope) ==
          "column 1: unknown variable 'TILES' (did you mean 'TILE'?); known: TILE, VEC, n");
    CHECK(evaluation_error_of("n + x", scope) ==
          "column 5: unknown variable 'x'; known: TILE, VEC, n");
    CHECK(evaluation_error_of("n") ==
          "column 1: unknown variable 'n'; no variables are defined here");

    Scope candidate(&scope);
    candidate.set("UNROLL", std::int64_t{2});
    CHECK(evaluation_error_of("unrol + 1", candidate) ==
          "column 1: unknown variable 'unrol' (did you mean 'UNROLL'?); known: TILE, UNROLL, "
          "VEC, n");
}

TEST_CASE("nesting is bounded so no input can exhaust the stack") {
    CHECK(parse_error_of(repeated("(", 250) + "1" + repeated(")", 250)) ==
          "column 201: expression is nested too deeply (more than 200 levels)");
    // The whole expression is level 1, so the 200th '-' opens level 201.
    CHECK(parse_error_of(repeated("-", 250) + "1") ==
          "column 200: expression is nested too deeply (more than 200 levels)");
    CHECK(spvtune::problem::testing::show(repeated("(", 150) + "1" + repeated(")", 150)) == "1");
    CHECK(spvtune::problem::testing::show("1" + repeated(" + 1", 150)) == "151");
    CHECK(parse_error_of("1" + repeated("+1", 1000)).find("nested too deeply") !=
          std::string::npos);
}

TEST_CASE("an error carries its parts and renders a caret under the column") {
    ExpressionError error = caught("n * 4 / (TILE - 16)", tile_scope());
    CHECK(error.expression() == "n * 4 / (TILE - 16)");
    CHECK(error.column() == 7);
    CHECK(error.length() == 1);
    CHECK(error.message() == "division by zero");
    CHECK(error.render() ==
          "n * 4 / (TILE - 16)\n"
          "      ^ division by zero");

    // A multi-character token is underlined in full, and the indent prefixes both lines.
    CHECK(caught("2 * TILES", tile_scope()).render("  ") ==
          "  2 * TILES\n"
          "      ^~~~~ unknown variable 'TILES' (did you mean 'TILE'?); known: TILE, VEC, n");

    // At the end of the text the caret sits just past it.
    CHECK(caught("(1 + 2").render() ==
          "(1 + 2\n"
          "      ^ expected ')' to close the '(' at column 1, found end of expression");

    // Tabs are kept so the caret lines up; a multi-byte character takes one column.
    CHECK(caught("1 +\t* 2").render() ==
          "1 +\t* 2\n"
          "   \t^ unexpected token '*', expected a value");
    CHECK(caught("1 +\n* 2").render() ==
          "1 + * 2\n"
          "    ^ unexpected token '*', expected a value");
    CHECK(caught("\"\xC3\xA9\" == $").render() ==
          "\"\xC3\xA9\" == $\n"
          "       ^ unexpected character '$'");
}

}  // namespace expression_error_test
