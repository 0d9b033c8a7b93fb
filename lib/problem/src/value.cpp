#include <charconv>
#include <limits>
#include <string>
#include <system_error>
#include <variant>

#include <spvtune/problem/expression_error.hpp>
#include <spvtune/problem/value.hpp>

namespace spvtune::problem {
namespace {

std::string float_to_string(double value) {
    char buffer[32];
    auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value);
    std::string text(buffer, error == std::errc{} ? end : buffer);
    // Shortest round-trip form, but always recognisably a float: `2` would read back as an int.
    if (text.find_first_of(".en") == std::string::npos) {
        text += ".0";
    }
    return text;
}

std::string quote(const std::string& text) {
    std::string quoted = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\') {
            quoted += '\\';
        }
        quoted += c;
    }
    return quoted + "\"";
}

[[noreturn]] void conversion_error(const Value& value, std::string_view expression,
                                   std::string_view expected) {
    // The whole text is underlined: the value is the result of all of it.
    std::size_t length = 0;
    for (char c : expression) {
        length += (static_cast<unsigned char>(c) & 0xC0U) != 0x80U ? 1 : 0;
    }
    throw ExpressionError(std::string(expression), 1, length,
                          "expected " + std::string(expected) + ", got " +
                              std::string(type_name(value)) + " " + to_string(value));
}

}  // namespace

std::string_view type_name(const Value& value) {
    static constexpr std::string_view names[] = {"int", "float", "bool", "string"};
    return names[value.index()];
}

std::string to_string(const Value& value) {
    if (const auto* i = std::get_if<std::int64_t>(&value)) {
        return std::to_string(*i);
    }
    if (const auto* d = std::get_if<double>(&value)) {
        return float_to_string(*d);
    }
    if (const auto* b = std::get_if<bool>(&value)) {
        return *b ? "true" : "false";
    }
    return quote(std::get<std::string>(value));
}

std::int64_t as_int(const Value& value, std::string_view expression) {
    if (const auto* i = std::get_if<std::int64_t>(&value)) {
        return *i;
    }
    conversion_error(value, expression, "an int");
}

std::uint32_t as_uint32(const Value& value, std::string_view expression) {
    const auto* i = std::get_if<std::int64_t>(&value);
    if (i == nullptr || *i < 0 || *i > std::numeric_limits<std::uint32_t>::max()) {
        conversion_error(value, expression, "an int in 0..4294967295");
    }
    return static_cast<std::uint32_t>(*i);
}

double as_double(const Value& value, std::string_view expression) {
    if (const auto* d = std::get_if<double>(&value)) {
        return *d;
    }
    if (const auto* i = std::get_if<std::int64_t>(&value)) {
        return static_cast<double>(*i);
    }
    conversion_error(value, expression, "a number");
}

bool as_bool(const Value& value, std::string_view expression) {
    if (const auto* b = std::get_if<bool>(&value)) {
        return *b;
    }
    conversion_error(value, expression, "a bool");
}

}  // namespace spvtune::problem
