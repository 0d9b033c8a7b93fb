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
        (key.starts_with("{") ? selection.json_keys_ : filters).push_back(key);
        selection.description_ += " --key " + key;
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

}  // namespace spvtune::app
