#pragma once

#include <string_view>

#include <spvtune/problem/value.hpp>

#include "location.hpp"
#include "tree.hpp"

namespace spvtune::problem::detail {

/// The operator as written in expressions, e.g. "<=".
std::string_view spelling(Operator op);

/// `op operand` for `-` and `!`; type errors and overflow fail at `at`.
Value apply_unary(Operator op, const Value& operand, const Location& at);

/// `left op right` for the arithmetic, relational and equality operators (not `&&`/`||`, which
/// short-circuit in the evaluator); type errors, overflow and division by zero fail at `at`.
Value apply_binary(Operator op, const Value& left, const Value& right, const Location& at);

/// The boolean a logical operator or condition needs, or a type error at `at` naming `role`
/// (e.g. "'&&'" or "the condition of '?:'").
bool require_bool(const Value& value, std::string_view role, const Location& at);

}  // namespace spvtune::problem::detail
