#include "operators.hpp"

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <variant>

#include <spvtune/base/enum_names.hpp>

#include "numeric.hpp"

namespace spvtune::problem::detail {
namespace {

// As error messages quote an operator; negation and subtraction share a spelling, so the lexer
// and parser, which tell them apart by position, keep their own tables.
constexpr base::EnumNames<Operator, 13> operator_spellings{{
    {Operator::negate, "-"},
    {Operator::logical_not, "!"},
    {Operator::add, "+"},
    {Operator::subtract, "-"},
    {Operator::multiply, "*"},
    {Operator::divide, "/"},
    {Operator::modulo, "%"},
    {Operator::less, "<"},
    {Operator::less_equal, "<="},
    {Operator::greater, ">"},
    {Operator::greater_equal, ">="},
    {Operator::equal, "=="},
    {Operator::not_equal, "!="},
}};

std::string quoted(Operator op) {
    return "'" + std::string(spelling(op)) + "'";
}

[[noreturn]] void type_error(Operator op, const Value& left, const Value& right,
                             std::string_view needs, const Location& at) {
    at.fail(quoted(op) + " needs " + std::string(needs) + ", got " + std::string(type_name(left)) +
            " and " + std::string(type_name(right)));
}

[[noreturn]] void overflow(Operator op, const Location& at) {
    at.fail("integer overflow in " + quoted(op));
}

Value integer_arithmetic(Operator op, std::int64_t a, std::int64_t b, const Location& at) {
    std::int64_t result = 0;
    bool overflowed = false;
    switch (op) {
        case Operator::add:
            overflowed = __builtin_add_overflow(a, b, &result);
            break;
        case Operator::subtract:
            overflowed = __builtin_sub_overflow(a, b, &result);
            break;
        case Operator::multiply:
            overflowed = __builtin_mul_overflow(a, b, &result);
            break;
        case Operator::divide:
            if (b == 0) {
                at.fail("division by zero");
            }
            // INT64_MIN / -1 is the one quotient that does not fit.
            overflowed = a == std::numeric_limits<std::int64_t>::min() && b == -1;
            result = overflowed ? 0 : a / b;
            break;
        case Operator::modulo:
            if (b == 0) {
                at.fail("modulo by zero");
            }
            // INT64_MIN % -1 is 0 mathematically but undefined in C++; any x % -1 is 0.
            result = b == -1 ? 0 : a % b;
            break;
        default:
            at.fail("internal error: " + quoted(op) + " is not arithmetic");
    }
    if (overflowed) {
        overflow(op, at);
    }
    return result;
}

Value float_arithmetic(Operator op, double a, double b, const Location& at) {
    switch (op) {
        case Operator::add:
            return finite(a + b, at);
        case Operator::subtract:
            return finite(a - b, at);
        case Operator::multiply:
            return finite(a * b, at);
        case Operator::divide:
            if (b == 0.0) {
                at.fail("division by zero");
            }
            return finite(a / b, at);
        default:
            break;
    }
    at.fail("internal error: " + quoted(op) + " is not float arithmetic");
}

Value arithmetic(Operator op, const Value& left, const Value& right, const Location& at) {
    if (!is_number(left) || !is_number(right)) {
        type_error(op, left, right, "numbers", at);
    }
    const auto* a = std::get_if<std::int64_t>(&left);
    const auto* b = std::get_if<std::int64_t>(&right);
    if (a != nullptr && b != nullptr) {
        return integer_arithmetic(op, *a, *b, at);
    }
    if (op == Operator::modulo) {
        type_error(op, left, right, "integers", at);
    }
    return float_arithmetic(op, to_double(left), to_double(right), at);
}

Value relation(Operator op, const Value& left, const Value& right, const Location& at) {
    if (!is_number(left) || !is_number(right)) {
        type_error(op, left, right, "numbers", at);
    }
    std::partial_ordering order = compare_numbers(left, right);
    switch (op) {
        case Operator::less:
            return order < 0;
        case Operator::less_equal:
            return order <= 0;
        case Operator::greater:
            return order > 0;
        default:
            return order >= 0;
    }
}

bool equal(Operator op, const Value& left, const Value& right, const Location& at) {
    if (is_number(left) && is_number(right)) {
        return compare_numbers(left, right) == 0;
    }
    if (left.index() != right.index()) {
        at.fail(quoted(op) + " cannot compare " + std::string(type_name(left)) + " with " +
                std::string(type_name(right)));
    }
    return left == right;
}

}  // namespace

std::string_view spelling(Operator op) {
    return base::name_of(operator_spellings, op, "?");
}

Value apply_unary(Operator op, const Value& operand, const Location& at) {
    if (op == Operator::logical_not) {
        return !require_bool(operand, "'!'", at);
    }
    if (const auto* i = std::get_if<std::int64_t>(&operand)) {
        std::int64_t result = 0;
        if (__builtin_sub_overflow(std::int64_t{0}, *i, &result)) {
            overflow(op, at);
        }
        return result;
    }
    if (const auto* d = std::get_if<double>(&operand)) {
        return -*d;
    }
    at.fail("'-' needs a number, got " + std::string(type_name(operand)));
}

Value apply_binary(Operator op, const Value& left, const Value& right, const Location& at) {
    switch (op) {
        case Operator::add:
        case Operator::subtract:
        case Operator::multiply:
        case Operator::divide:
        case Operator::modulo:
            return arithmetic(op, left, right, at);
        case Operator::less:
        case Operator::less_equal:
        case Operator::greater:
        case Operator::greater_equal:
            return relation(op, left, right, at);
        case Operator::equal:
            return equal(op, left, right, at);
        case Operator::not_equal:
            return !equal(op, left, right, at);
        default:
            break;
    }
    at.fail("internal error: " + quoted(op) + " is not a binary operator");
}

bool require_bool(const Value& value, std::string_view role, const Location& at) {
    if (const auto* b = std::get_if<bool>(&value)) {
        return *b;
    }
    at.fail(std::string(role) + " needs a bool, got " + std::string(type_name(value)));
}

}  // namespace spvtune::problem::detail
