#include "entry_selection.hpp"

#include <algorithm>
#include <exception>

#include <nlohmann/json.hpp>

#include <spvtune/problem/problem_key.hpp>

namespace spvtune::app {

tune::Result<EntrySelection> EntrySelection::parse(std::string tuner,
                                                   const std::vector<std::string>& keys) {
    EntrySelection selection;
    std::vector<std::string> filters;
    for (const std::string& key : keys) {
        selection.description_ += " --key " + key;
        if (!key.starts_with("{")) {
            filters.push_back(key);
            continue;
        }
        // Compared as the cache writes keys (compact, members sorted), so spacing does not
        // matter; text that is no JSON object could never match and is a typo.
        const auto json = nlohmann::json::parse(key, nullptr, false);
        if (!json.is_object()) {
            return tune::fail("--key '" + key +
                              "': expected name=value[,name=value...] or a key's JSON object");
        }
        selection.json_keys_.push_back(json.dump());
    }
    auto filter = KeyFilter::parse(filters);
    if (!filter) {
        return tune::fail(filter.error());
    }
    selection.filter_ = std::move(filter).value();
    if (!tuner.empty()) {
        selection.description_ = " --tuner " + tuner + selection.description_;
    }
    selection.filtered_ = !tuner.empty() || !keys.empty();
    selection.tuner_ = std::move(tuner);
    if (!selection.description_.empty()) {
        selection.description_.erase(0, 1);
    }
    return selection;
}

bool EntrySelection::matches(const std::string& tuner, const std::string& key_json) const {
    if (!tuner_.empty() && tuner != tuner_) {
        return false;
    }
    if (!std::all_of(json_keys_.begin(), json_keys_.end(),
                     [&](const std::string& key) { return key == key_json; })) {
        return false;
    }
    try {
        // A cache may hold keys of other shapes (any tuner's); those only match as JSON.
        return filter_.matches(nlohmann::json::parse(key_json).get<problem::ProblemKey>());
    } catch (const std::exception&) {
        return filter_.empty();
    }
}

std::string EntrySelection::describe() const {
    return description_;
}

std::optional<EntrySelection> EntrySelection::bucketed(tune::AutotuneLevel level) const {
    KeyFilter filter = filter_.bucketed(level);
    if (filter.describe() == filter_.describe()) {
        return std::nullopt;
    }
    EntrySelection selection = *this;
    selection.filter_ = std::move(filter);
    return selection;
}

}  // namespace spvtune::app
