#pragma once

#include <string>
#include <string_view>

#include <spvtune/problem/expression.hpp>

// Results as text, so one CHECK states the type and the value: "3" is an int, "3.0" a float,
// "true" a bool, "\"f32\"" a string; errors as their full what(), column included.
namespace spvtune::problem::testing {

inline std::string show(std::string_view text, const Scope& scope = {}) {
    return to_string(Expression::parse(text).evaluate(scope));
}

inline std::string evaluation_error_of(std::string_view text, const Scope& scope = {}) {
    try {
        Value value = Expression::parse(text).evaluate(scope);
        return "no error, value " + to_string(value);
    } catch (const ExpressionError& error) {
        return error.what();
    }
}

// Only parses: for errors that must be caught before anything is evaluated.
inline std::string parse_error_of(std::string_view text) {
    try {
        Expression::parse(text);
        return "no error";
    } catch (const ExpressionError& error) {
        return error.what();
    }
}

}  // namespace spvtune::problem::testing
