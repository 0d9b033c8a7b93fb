#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/problem/expression.hpp>

#include "problem/expression_helpers.hpp"

namespace expression_test {

using namespace spvtune::problem;
using spvtune::problem::testing::evaluation_error_of;
using spvtune::problem::testing::show;

TEST_CASE("precedence and associativity follow C") {
    CHECK(show("2 + 3 * 4") == "14");
    CHECK(show("(2 + 3) * 4") == "20");
    CHECK(show("10 - 4 - 3") == "3");
    CHECK(show("100 / 10 / 5") == "2");
    CHECK(show("2 * 3 % 4") == "2");  // (2 * 3) % 4, not 2 * (3 % 4) = 6
    CHECK(show("-2 * -3") == "6");
    CHECK(show("--2") == "2");
    CHECK(show("-(2 + 3)") == "-5");
    CHECK(show("!true || true") == "true");  // (!true) || true
    CHECK(show("!(true || true)") == "false");
    CHECK(show("true || false && false") == "true");  // && binds tighter than ||
    CHECK(show("1 + 2 < 4 == true") == "true");       // ((1 + 2) < 4) == true
    CHECK(show("1 < 2 == 2 < 3") == "true");
    CHECK(show(" 1+2 ") == "3");
}

TEST_CASE("literals") {
    CHECK(show("0x2A") == "42");
    CHECK(show("0XfF") == "255");
    CHECK(show("1.5") == "1.5");
    CHECK(show(".5") == "0.5");
    CHECK(show("1e-3") == "0.001");
    CHECK(show("2E3") == "2000.0");
    CHECK(show("3.") == "3.0");
    CHECK(show("true") == "true");
    CHECK(show("false") == "false");
    CHECK(show("\"f32\"") == "\"f32\"");
    CHECK(show(R"("say \"hi\" \\")") == R"("say \"hi\" \\")");
    CHECK(show("9223372036854775807") == "9223372036854775807");
    CHECK(show("-9223372036854775808") == "-9223372036854775808");
}

TEST_CASE("int arithmetic stays int, a float operand makes it float") {
    CHECK(show("7 / 2") == "3");
    CHECK(show("7 / 2 == 3") == "true");
    CHECK(show("-7 / 2") == "-3");  // truncates toward zero
    CHECK(show("7.0 / 2") == "3.5");
    CHECK(show("7.0 / 2 == 3.5") == "true");
    CHECK(show("7 / 2.0") == "3.5");
    CHECK(show("7 % 3") == "1");
    CHECK(show("-7 % 3") == "-1");  // sign of the dividend, as in C
    CHECK(show("2 + 0.5") == "2.5");
    CHECK(show("2.0 * 3") == "6.0");
    CHECK(show("-1.5") == "-1.5");
    CHECK(show("-9223372036854775807 - 1") == "-9223372036854775808");
    CHECK(show("-9223372036854775808 % -1") == "0");
}

TEST_CASE("comparisons") {
    CHECK(show("3 < 4") == "true");
    CHECK(show("4 <= 4") == "true");
    CHECK(show("5 > 4") == "true");
    CHECK(show("4 >= 5") == "false");
    CHECK(show("2 == 2.0") == "true");
    CHECK(show("2 != 2.5") == "true");
    CHECK(show("3 < 3.5") == "true");
    CHECK(show("-3 > -3.5") == "true");
    CHECK(show("true == true") == "true");
    CHECK(show("true != false") == "true");
    // Exact, not through double: 2^53 + 1 is not 2^53 even though (double)(2^53 + 1) is.
    CHECK(show("9007199254740993 == 9007199254740992.0") == "false");
    CHECK(show("9007199254740993 > 9007199254740992.0") == "true");
    CHECK(show("9223372036854775807 < 9223372036854775808.0") == "true");
}

TEST_CASE("&& and || short-circuit") {
    CHECK(show("false && 1 / 0 == 1") == "false");
    CHECK(show("true || 1 / 0 == 1") == "true");
    CHECK(show("false && undefined_name") == "false");
    // (true && 1 / 0 == 1) || true: the left side is evaluated, so the division fails.
    CHECK(evaluation_error_of("true && 1 / 0 == 1 || true") == "column 11: division by zero");
}

TEST_CASE("the ternary evaluates only the chosen branch and nests to the right") {
    CHECK(show("true ? 1 : 2") == "1");
    CHECK(show("1 > 2 ? 1 : 2.5") == "2.5");
    CHECK(show("false ? 1 / 0 : 7") == "7");
    CHECK(show("true ? 7 : 1 / 0") == "7");
    CHECK(show("false ? 1 : true ? 2 : 3") == "2");  // false ? 1 : (true ? 2 : 3)
    CHECK(show("true ? false ? 1 : 2 : 3") == "2");  // true ? (false ? 1 : 2) : 3
    CHECK(show("1 + (true ? 1 : 0) * 2") == "3");
    CHECK(show("true ? \"a\" : \"b\"") == "\"a\"");
}

TEST_CASE("strings compare with == and !=") {
    Scope scope;
    scope.set("dtype", std::string("f32"));
    CHECK(show("dtype == \"f32\"", scope) == "true");
    CHECK(show("dtype != \"f32\"", scope) == "false");
    CHECK(show("dtype == \"f16\" ? 2 : 4", scope) == "4");
    CHECK(show("\"a\" == \"A\"") == "false");
}

TEST_CASE("variables come from the scope, then its parents") {
    Scope key;
    key.set("n", std::int64_t{1000}).set("alpha", 0.5).set("TILE", std::int64_t{4});
    Scope candidate(&key);
    candidate.set("TILE", std::int64_t{16}).set("VEC", std::int64_t{4});

    CHECK(show("n * 4", key) == "4000");
    CHECK(show("ceil_div(n, TILE * VEC)", candidate) == "16");  // the candidate's TILE shadows
    CHECK(show("TILE", key) == "4");                            // the parent is unchanged
    CHECK(show("n * alpha", candidate) == "500.0");
    CHECK(show("TILE * VEC <= 64 && n % TILE == 0", candidate) == "false");

    candidate.set("TILE", std::int64_t{8});  // set replaces within the same scope
    CHECK(show("TILE * VEC <= 64 && n % TILE == 0", candidate) == "true");
    CHECK(candidate.names() == std::vector<std::string>{"TILE", "VEC", "alpha", "n"});
    CHECK(candidate.find("nope") == nullptr);
}

TEST_CASE("one parsed expression evaluates for many scopes") {
    Expression expression = Expression::parse("n % TILE == 0 ? n / TILE : -1");
    CHECK(expression.text() == "n % TILE == 0 ? n / TILE : -1");
    Scope scope;
    std::vector<std::string> results;
    for (std::int64_t tile : {2, 3, 5}) {
        scope.set("n", std::int64_t{10}).set("TILE", tile);
        results.push_back(to_string(expression.evaluate(scope)));
    }
    CHECK(results == std::vector<std::string>{"5", "-1", "2"});

    // Copies share the parsed tree, which evaluation never changes: threads may share it.
    Expression copy = expression;
    std::vector<std::string> from_threads(4);
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < from_threads.size(); ++i) {
        threads.emplace_back([&, i] {
            Scope local;
            local.set("n", static_cast<std::int64_t>(12 * (i + 1))).set("TILE", std::int64_t{4});
            for (int repeat = 0; repeat < 1000; ++repeat) {
                from_threads[i] = to_string(copy.evaluate(local));
            }
        });
    }
    for (std::thread& thread : threads) {
        thread.join();
    }
    CHECK(from_threads == std::vector<std::string>{"3", "6", "9", "12"});
}

TEST_CASE("variables() lists every referenced name once, sorted, skipped branches included") {
    CHECK(Expression::parse("ceil_div(n, TILE) * TILE + (m > 0 ? n : VEC) + pow2(k)").variables() ==
          std::vector<std::string>{"TILE", "VEC", "k", "m", "n"});
    CHECK(Expression::parse("1 + 2").variables().empty());
    CHECK(Expression::parse("true && false").variables().empty());  // keywords, not names
    CHECK(Expression::parse("min").variables() == std::vector<std::string>{"min"});
}

}  // namespace expression_test
