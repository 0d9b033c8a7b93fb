#include "numeric.hpp"

#include <cmath>
#include <variant>

namespace spvtune::problem::detail {
namespace {

// 2^63 is exactly representable; every double in [-2^63, 2^63) converts to int64 without UB.
constexpr double two_to_63 = 9223372036854775808.0;

std::partial_ordering compare_int_float(std::int64_t i, double d) {
    if (std::isnan(d)) {
        return std::partial_ordering::unordered;
    }
    if (d >= two_to_63) {
        return std::partial_ordering::less;
    }
    if (d < -two_to_63) {
        return std::partial_ordering::greater;
    }
    double whole = std::trunc(d);
    auto truncated = static_cast<std::int64_t>(whole);
    if (i != truncated) {
        return i <=> truncated;
    }
    // Same integral part: the fraction decides (whole - d is exact for doubles of this size).
    return 0.0 <=> d - whole;
}

}  // namespace

bool is_number(const Value& value) {
    return std::holds_alternative<std::int64_t>(value) || std::holds_alternative<double>(value);
}

std::partial_ordering compare_numbers(const Value& left, const Value& right) {
    const auto* li = std::get_if<std::int64_t>(&left);
    const auto* ri = std::get_if<std::int64_t>(&right);
    if (li != nullptr && ri != nullptr) {
        return *li <=> *ri;
    }
    if (li != nullptr) {
        return compare_int_float(*li, std::get<double>(right));
    }
    if (ri != nullptr) {
        return 0 <=> compare_int_float(*ri, std::get<double>(left));
    }
    return std::get<double>(left) <=> std::get<double>(right);
}

double to_double(const Value& number) {
    if (const auto* i = std::get_if<std::int64_t>(&number)) {
        return static_cast<double>(*i);
    }
    return std::get<double>(number);
}

double finite(double result, const Location& at) {
    if (!std::isfinite(result)) {
        at.fail("float result out of range");
    }
    return result;
}

std::int64_t integral_to_int(double integral, std::string_view what, const Location& at) {
    if (!(integral >= -two_to_63 && integral < two_to_63)) {
        at.fail(std::string(what) + " result out of the 64-bit integer range");
    }
    return static_cast<std::int64_t>(integral);
}

}  // namespace spvtune::problem::detail
