#include "key_filter.hpp"

#include <charconv>
#include <optional>

namespace spvtune::app {
namespace {

std::optional<double> as_number(const std::string& text) {
    double value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc{} || end != text.data() + text.size()) {
        return std::nullopt;
    }
    return value;
}

std::optional<std::uint64_t> as_whole_number(const std::string& text) {
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc{} || end != text.data() + text.size()) {
        return std::nullopt;
    }
    return value;
}

std::string trimmed(const std::string& text) {
    const auto first = text.find_first_not_of(' ');
    if (first == std::string::npos) {
        return "";
    }
    return text.substr(first, text.find_last_not_of(' ') - first + 1);
}

bool value_matches(const problem::KeyValue& value, const std::string& wanted) {
    if (const auto* text = std::get_if<std::string>(&value)) {
        return *text == wanted;
    }
    const auto number = as_number(wanted);
    if (!number) {
        return false;
    }
    if (const auto* integer = std::get_if<std::int64_t>(&value)) {
        return static_cast<double>(*integer) == *number;
    }
    return std::get<double>(value) == *number;
}

}  // namespace

tune::Result<KeyFilter> KeyFilter::parse(const std::vector<std::string>& items) {
    KeyFilter filter;
    for (const std::string& item : items) {
        std::size_t start = 0;
        while (start <= item.size()) {
            const std::size_t comma = std::min(item.find(',', start), item.size());
            const std::string part = item.substr(start, comma - start);
            const std::size_t equals = part.find('=');
            const std::string name = trimmed(part.substr(0, equals));
            const std::string value =
                equals == std::string::npos ? "" : trimmed(part.substr(equals + 1));
            if (name.empty() || value.empty()) {
                return tune::fail("--key '" + item +
                                  "': expected name=value[,name=value...], found '" + part + "'");
            }
            filter.wanted_.emplace_back(name, value);
            start = comma + 1;
        }
    }
    return filter;
}

bool KeyFilter::matches(const problem::ProblemKey& key) const {
    for (const auto& [name, wanted] : wanted_) {
        const problem::KeyValue* value = key.find(name);
        if (value == nullptr || !value_matches(*value, wanted)) {
            return false;
        }
    }
    return true;
}

std::string KeyFilter::describe() const {
    std::string text;
    for (const auto& [name, value] : wanted_) {
        text += (text.empty() ? "" : ",") + name + "=" + value;
    }
    return text;
}

KeyFilter KeyFilter::bucketed(tune::AutotuneLevel level) const {
    KeyFilter filter;
    for (const auto& [name, value] : wanted_) {
        const auto number = as_whole_number(value);
        filter.wanted_.emplace_back(
            name, number
                      ? std::to_string(tune::anchor(*number, std::nullopt, std::nullopt, 2, level))
                      : value);
    }
    return filter;
}

}  // namespace spvtune::app
