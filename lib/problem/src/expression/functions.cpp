#include "functions.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <variant>

#include "numeric.hpp"

namespace spvtune::problem::detail {
namespace {

constexpr std::size_t unlimited = std::numeric_limits<std::size_t>::max();

std::string argument_name(std::size_t index) {
    static constexpr std::string_view names[] = {"first argument", "second argument"};
    return index < 2 ? std::string(names[index]) : "argument " + std::to_string(index + 1);
}

[[noreturn]] void argument_type_error(std::string_view function, std::size_t index,
                                      std::string_view needs, const Value& got,
                                      const Location& at) {
    at.fail(std::string(function) + ": " + argument_name(index) + " must be " + std::string(needs) +
            ", got " + std::string(type_name(got)));
}

std::int64_t int_argument(std::string_view function, std::span<const Value> arguments,
                          std::size_t index, const Location& at) {
    if (const auto* i = std::get_if<std::int64_t>(&arguments[index])) {
        return *i;
    }
    argument_type_error(function, index, "an int", arguments[index], at);
}

const Value& number_argument(std::string_view function, std::span<const Value> arguments,
                             std::size_t index, const Location& at) {
    if (!is_number(arguments[index])) {
        argument_type_error(function, index, "a number", arguments[index], at);
    }
    return arguments[index];
}

// min and max: the extreme value, as a float when any argument is a float (like arithmetic).
template <bool pick_smaller>
Value call_extreme(std::span<const Value> arguments, const Location& at) {
    constexpr std::string_view name = pick_smaller ? "min" : "max";
    bool any_float = false;
    const Value* best = &number_argument(name, arguments, 0, at);
    for (std::size_t i = 0; i < arguments.size(); ++i) {
        const Value& candidate = number_argument(name, arguments, i, at);
        any_float = any_float || std::holds_alternative<double>(candidate);
        auto order = compare_numbers(candidate, *best);
        if (pick_smaller ? order < 0 : order > 0) {
            best = &candidate;
        }
    }
    return any_float ? Value(to_double(*best)) : *best;
}

Value call_ceil_div(std::span<const Value> arguments, const Location& at) {
    std::int64_t a = int_argument("ceil_div", arguments, 0, at);
    std::int64_t b = int_argument("ceil_div", arguments, 1, at);
    if (b <= 0) {
        at.fail("ceil_div: divisor must be positive, got " + std::to_string(b));
    }
    // With b > 0 the quotient cannot overflow, and the +1 is only taken after a positive
    // remainder, when the quotient is below a <= INT64_MAX.
    return a / b + (a % b > 0 ? 1 : 0);
}

Value call_pow2(std::span<const Value> arguments, const Location& at) {
    std::int64_t k = int_argument("pow2", arguments, 0, at);
    if (k < 0 || k > 62) {
        at.fail("pow2: exponent must be in 0..62, got " + std::to_string(k));
    }
    return std::int64_t{1} << k;
}

Value call_log2(std::span<const Value> arguments, const Location& at) {
    const Value& x = number_argument("log2", arguments, 0, at);
    if (const auto* i = std::get_if<std::int64_t>(&x)) {
        if (*i <= 0) {
            at.fail("log2: argument must be positive, got " + std::to_string(*i));
        }
        return std::int64_t{63 - __builtin_clzll(static_cast<unsigned long long>(*i))};
    }
    double d = std::get<double>(x);
    if (d <= 0.0) {
        at.fail("log2: argument must be positive, got " + to_string(x));
    }
    return std::log2(d);
}

// The depth of a tree of passes: passes of fan-in 2^g over x values take ceil_div(ceil_log2(x), g).
Value call_ceil_log2(std::span<const Value> arguments, const Location& at) {
    const std::int64_t x = int_argument("ceil_log2", arguments, 0, at);
    if (x <= 0) {
        at.fail("ceil_log2: argument must be positive, got " + std::to_string(x));
    }
    return x == 1 ? std::int64_t{0}
                  : std::int64_t{64 - __builtin_clzll(static_cast<unsigned long long>(x - 1))};
}

Value call_abs(std::span<const Value> arguments, const Location& at) {
    const Value& x = number_argument("abs", arguments, 0, at);
    if (const auto* i = std::get_if<std::int64_t>(&x)) {
        if (*i == std::numeric_limits<std::int64_t>::min()) {
            at.fail("integer overflow in abs");
        }
        return *i < 0 ? -*i : *i;
    }
    return std::fabs(std::get<double>(x));
}

// floor, ceil, round and int: a float becomes the int it rounds to (an int stays as it is).
Value rounded(std::string_view name, double (*rounding)(double), std::span<const Value> arguments,
              const Location& at) {
    const Value& x = number_argument(name, arguments, 0, at);
    if (const auto* d = std::get_if<double>(&x)) {
        return integral_to_int(rounding(*d), name, at);
    }
    return x;
}

Value call_floor(std::span<const Value> arguments, const Location& at) {
    return rounded(
        "floor", [](double x) { return std::floor(x); }, arguments, at);
}
Value call_ceil(std::span<const Value> arguments, const Location& at) {
    return rounded(
        "ceil", [](double x) { return std::ceil(x); }, arguments, at);
}
Value call_round(std::span<const Value> arguments, const Location& at) {
    return rounded(
        "round", [](double x) { return std::round(x); }, arguments, at);
}
Value call_int(std::span<const Value> arguments, const Location& at) {
    return rounded(
        "int", [](double x) { return std::trunc(x); }, arguments, at);
}

Value call_float(std::span<const Value> arguments, const Location& at) {
    return to_double(number_argument("float", arguments, 0, at));
}

// pow, exp, log and sqrt: real-valued, a float whatever their arguments (ALiBi slopes, scales
// computed from key values); a result that is not a finite number is an error, not a value.
double finite_result(std::string_view name, double result, const Location& at) {
    if (!std::isfinite(result)) {
        at.fail(std::string(name) + ": the result is not a finite number");
    }
    return result;
}

Value call_pow(std::span<const Value> arguments, const Location& at) {
    const double base = to_double(number_argument("pow", arguments, 0, at));
    const double exponent = to_double(number_argument("pow", arguments, 1, at));
    if (base < 0.0 && exponent != std::trunc(exponent)) {
        at.fail("pow: a negative base needs a whole exponent, got " + to_string(arguments[1]));
    }
    return finite_result("pow", std::pow(base, exponent), at);
}

Value call_exp(std::span<const Value> arguments, const Location& at) {
    return finite_result("exp", std::exp(to_double(number_argument("exp", arguments, 0, at))), at);
}

Value call_log(std::span<const Value> arguments, const Location& at) {
    const double x = to_double(number_argument("log", arguments, 0, at));
    if (x <= 0.0) {
        at.fail("log: argument must be positive, got " + to_string(arguments[0]));
    }
    return std::log(x);
}

Value call_sqrt(std::span<const Value> arguments, const Location& at) {
    const double x = to_double(number_argument("sqrt", arguments, 0, at));
    if (x < 0.0) {
        at.fail("sqrt: argument must be at least 0, got " + to_string(arguments[0]));
    }
    return std::sqrt(x);
}

// Sorted by name so function_names() is sorted too.
constexpr Function functions[] = {
    {"abs", 1, 1, call_abs},
    {"ceil", 1, 1, call_ceil},
    {"ceil_div", 2, 2, call_ceil_div},
    {"ceil_log2", 1, 1, call_ceil_log2},
    {"exp", 1, 1, call_exp},
    {"float", 1, 1, call_float},
    {"floor", 1, 1, call_floor},
    {"int", 1, 1, call_int},
    {"log", 1, 1, call_log},
    {"log2", 1, 1, call_log2},
    {"max", 2, unlimited, call_extreme<false>},
    {"min", 2, unlimited, call_extreme<true>},
    {"pow", 2, 2, call_pow},
    {"pow2", 1, 1, call_pow2},
    {"round", 1, 1, call_round},
    {"sqrt", 1, 1, call_sqrt},
};

}  // namespace

const Function* find_function(std::string_view name) {
    for (const Function& function : functions) {
        if (function.name == name) {
            return &function;
        }
    }
    return nullptr;
}

std::vector<std::string> function_names() {
    std::vector<std::string> names;
    for (const Function& function : functions) {
        names.emplace_back(function.name);
    }
    return names;
}

std::string arity(const Function& function) {
    if (function.max_arguments == unlimited) {
        return std::to_string(function.min_arguments) + " or more";
    }
    return std::to_string(function.min_arguments);
}

}  // namespace spvtune::problem::detail
