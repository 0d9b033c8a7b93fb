#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

namespace spvtune::problem {

/// A value of the expression language: a 64-bit signed integer, a finite double, a boolean or a
/// string. The alternative order is part of the API (index 0 = int, 1 = float, 2 = bool,
/// 3 = string).
using Value = std::variant<std::int64_t, double, bool, std::string>;

/// The language's name of the value's type: "int", "float", "bool" or "string".
std::string_view type_name(const Value& value);

/// The value as the language writes it: `42`, `3.5`, `2.0` (a float always shows a '.' or an
/// exponent), `true`, `"f32"` (strings quoted, '"' and '\' escaped).
std::string to_string(const Value& value);

// Checked conversions for callers that need one type out of an expression. `expression` is the
// source text the value came from; a wrong type or range throws an ExpressionError over the
// whole text, so the message shows what produced the bad value. Types are strict: a float is
// never silently an integer (the expression can say `int(x)` or `round(x)`).

/// The integer; any other type is an error.
std::int64_t as_int(const Value& value, std::string_view expression);
/// The integer, which must lie in [0, 2^32 - 1] (counts, sizes, specialization values).
std::uint32_t as_uint32(const Value& value, std::string_view expression);
/// The float, or the integer converted to double; bool and string are errors.
double as_double(const Value& value, std::string_view expression);
/// The boolean (constraints); any other type is an error.
bool as_bool(const Value& value, std::string_view expression);

}  // namespace spvtune::problem
