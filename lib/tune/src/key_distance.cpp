#include <cmath>

#include <nlohmann/json.hpp>

#include <spvtune/tune/key_distance.hpp>

namespace spvtune::tune {
namespace {

std::optional<double> value_distance(const nlohmann::json& a, const nlohmann::json& b) {
    if (a == b) {
        return 0.0;
    }
    if (!a.is_number() || !b.is_number()) {
        return std::nullopt;  // another type, flag or name: a different problem, not a neighbour
    }
    const double x = a.get<double>();
    const double y = b.get<double>();
    if (!(x > 0 && y > 0)) {
        return std::nullopt;
    }
    return std::abs(std::log2(x / y));
}

}  // namespace

std::optional<double> key_distance(std::string_view a, std::string_view b) {
    const nlohmann::json x = nlohmann::json::parse(a, nullptr, false);
    const nlohmann::json y = nlohmann::json::parse(b, nullptr, false);
    if (x.is_discarded() || y.is_discarded()) {
        return std::nullopt;
    }
    if (!x.is_object() || !y.is_object()) {
        return value_distance(x, y);
    }
    if (x.size() != y.size()) {
        return std::nullopt;
    }
    double sum = 0;
    for (const auto& [name, value] : x.items()) {
        const auto other = y.find(name);
        if (other == y.end()) {
            return std::nullopt;
        }
        const std::optional<double> distance = value_distance(value, *other);
        if (!distance) {
            return std::nullopt;
        }
        sum += *distance;
    }
    return sum;
}

}  // namespace spvtune::tune
