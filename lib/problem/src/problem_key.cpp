#include <algorithm>
#include <stdexcept>

#include <spvtune/base/digest.hpp>
#include <spvtune/problem/problem_key.hpp>
#include <spvtune/problem/value.hpp>

namespace spvtune::problem {

ProblemKey::ProblemKey(std::vector<Entry> entries) : entries_(std::move(entries)) {
    std::sort(entries_.begin(), entries_.end(),
              [](const Entry& a, const Entry& b) { return a.first < b.first; });
    const auto repeated =
        std::adjacent_find(entries_.begin(), entries_.end(),
                           [](const Entry& a, const Entry& b) { return a.first == b.first; });
    if (repeated != entries_.end()) {
        throw std::invalid_argument("problem key sets '" + repeated->first + "' twice");
    }
}

const KeyValue* ProblemKey::find(std::string_view name) const {
    const auto it = std::lower_bound(
        entries_.begin(), entries_.end(), name,
        [](const Entry& entry, std::string_view wanted) { return entry.first < wanted; });
    return it != entries_.end() && it->first == name ? &it->second : nullptr;
}

std::string to_string(const KeyValue& value) {
    if (const auto* text = std::get_if<std::string>(&value)) {
        return *text;  // unquoted: keys print as `dtype=f32`
    }
    if (const auto* i = std::get_if<std::int64_t>(&value)) {
        return std::to_string(*i);
    }
    return to_string(Value(std::get<double>(value)));
}

std::string to_string(const ProblemKey& key) {
    std::string text;
    for (const auto& [name, value] : key.entries()) {
        if (!text.empty()) {
            text += ',';
        }
        text += name + '=' + to_string(value);
    }
    return text;
}

void to_json(nlohmann::json& json, const ProblemKey& key) {
    json = nlohmann::json::object();
    for (const auto& entry : key.entries()) {
        // Not a structured binding: clang 14 cannot capture one in a lambda.
        nlohmann::json& member = json[entry.first];
        std::visit([&member](const auto& v) { member = v; }, entry.second);
    }
}

void from_json(const nlohmann::json& json, ProblemKey& key) {
    if (!json.is_object()) {
        throw nlohmann::json::type_error::create(
            302, "a problem key must be an object, not " + std::string(json.type_name()), &json);
    }
    std::vector<ProblemKey::Entry> entries;
    for (const auto& [name, value] : json.items()) {
        if (value.is_number_integer()) {
            if (value.is_number_unsigned() &&
                value.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX)) {
                throw nlohmann::json::type_error::create(
                    302, "problem key value '" + name + "' is beyond the int64 range", &json);
            }
            entries.emplace_back(name, value.get<std::int64_t>());
        } else if (value.is_number_float()) {
            entries.emplace_back(name, value.get<double>());
        } else if (value.is_string()) {
            entries.emplace_back(name, value.get<std::string>());
        } else {
            throw nlohmann::json::type_error::create(302,
                                                     "problem key value '" + name +
                                                         "' must be a number or a string, not " +
                                                         std::string(value.type_name()),
                                                     &json);
        }
    }
    key = ProblemKey(std::move(entries));
}

}  // namespace spvtune::problem

std::size_t std::hash<spvtune::problem::ProblemKey>::operator()(
    const spvtune::problem::ProblemKey& key) const noexcept {
    spvtune::base::Fnv1a digest;
    for (const auto& [name, value] : key.entries()) {
        digest.add_field(name).add(static_cast<std::uint64_t>(value.index()));
        // Equal keys must hash equal: -0.0 == 0.0 but prints differently.
        const bool zero = std::holds_alternative<double>(value) && std::get<double>(value) == 0;
        digest.add_field(zero ? std::string("0.0") : spvtune::problem::to_string(value));
    }
    return static_cast<std::size_t>(digest.value());
}
