#pragma once

#include <compare>
#include <cstdint>
#include <string_view>

#include <spvtune/problem/value.hpp>

#include "location.hpp"

namespace spvtune::problem::detail {

/// Whether the value is an int or a float.
bool is_number(const Value& value);

/// The exact order of two numbers (int or float, mixed allowed). Unlike converting the int to
/// double, this never calls 2^53 + 1 equal to 2^53.
std::partial_ordering compare_numbers(const Value& left, const Value& right);

/// An int or float as double (exact for floats, nearest for large ints).
double to_double(const Value& number);

/// `result` if it is finite; otherwise an error at `at`: floats never carry inf or NaN, so
/// comparisons and conversions downstream stay meaningful.
double finite(double result, const Location& at);

/// The integer an integral-valued double holds, or an error at `at` when it lies outside the
/// 64-bit range. `what` names the operation for the message, e.g. "floor".
std::int64_t integral_to_int(double integral, std::string_view what, const Location& at);

}  // namespace spvtune::problem::detail
