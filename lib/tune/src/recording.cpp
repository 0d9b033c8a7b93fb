#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <utility>

#include <spvtune/base/name_list.hpp>
#include <spvtune/tune/recording.hpp>

#include "recording_json.hpp"

namespace spvtune::tune {
namespace {

using detail::DistinctValues;
using detail::max_parameters;
using detail::max_points;
using detail::max_times;
using detail::max_values;
using detail::point_name;
using detail::Reader;
using detail::sort_levels;
using detail::time_ns;
using detail::token;
using detail::value_text;

/// A list of one parameter's values, each distinct (DistinctValues), in the order of its levels.
std::vector<nlohmann::json> distinct_values(const Reader& reader, const nlohmann::json& list,
                                            const std::string& list_at) {
    DistinctValues listed;
    for (std::size_t v = 0; v < list.size(); ++v) {
        const std::string at = list_at + "/" + std::to_string(v);
        if (!listed.add(reader, list[v], at)) {
            reader.fail(at, "value " + list[v].dump() + " appears twice; expected distinct values");
        }
    }
    std::vector<nlohmann::json> values(list.begin(), list.end());
    sort_levels(values);
    return values;
}

std::vector<RecordedParameter> kernel_tuner_parameters(const Reader& reader,
                                                       const nlohmann::json& json) {
    using Type = nlohmann::json::value_t;
    const nlohmann::json& keys =
        reader.member(json, "", "tune_params_keys", Type::array, "an array of parameter names");
    const nlohmann::json& values =
        reader.member(json, "", "tune_params", Type::object, "an object of value lists");
    if (keys.empty() || keys.size() > max_parameters) {
        reader.fail("/tune_params_keys",
                    "expected 1 to " + std::to_string(max_parameters) + " parameter names");
    }
    std::vector<RecordedParameter> parameters;
    for (std::size_t k = 0; k < keys.size(); ++k) {
        const std::string at = "/tune_params_keys/" + std::to_string(k);
        if (!keys[k].is_string()) {
            reader.fail(at, "expected a parameter name (a string)");
        }
        RecordedParameter parameter{keys[k].get<std::string>(), {}};
        for (const RecordedParameter& earlier : parameters) {
            if (earlier.name == parameter.name) {
                reader.fail(at, "\"" + parameter.name + "\" is named twice");
            }
        }
        const nlohmann::json& list = reader.member(values, "/tune_params", parameter.name,
                                                   Type::array, "an array of values");
        const std::string list_at = "/tune_params/" + token(parameter.name);
        if (list.empty() || list.size() > max_values) {
            reader.fail(list_at, "expected 1 to " + std::to_string(max_values) + " values");
        }
        parameter.values = distinct_values(reader, list, list_at);
        parameters.push_back(std::move(parameter));
    }
    return parameters;
}

Recording read_kernel_tuner(const Reader& reader, const nlohmann::json& json) {
    using Type = nlohmann::json::value_t;
    Recording recording;
    recording.name = json.contains("kernel_name") && json["kernel_name"].is_string()
                         ? json["kernel_name"].get<std::string>()
                         : "recording";
    recording.parameters = kernel_tuner_parameters(reader, json);
    recording.device = detail::metadata_text(json, "device_name");
    recording.problem_size = json.value("problem_size", nlohmann::json());
    const nlohmann::json& cache =
        reader.member(json, "", "cache", Type::object, "an object of configurations");
    if (cache.size() > max_points) {
        reader.fail("/cache", "more than " + std::to_string(max_points) + " configurations");
    }
    const auto level_of = detail::levels_of(recording.parameters);
    std::map<std::vector<std::size_t>, std::string> seen;
    for (const auto& [key, entry] : cache.items()) {
        const std::string at = "/cache/" + token(key);
        if (!entry.is_object()) {
            reader.fail(at, "expected an object with the parameters' values and \"time\"");
        }
        RecordedPoint point;
        for (std::size_t p = 0; p < recording.parameters.size(); ++p) {
            const std::string& name = recording.parameters[p].name;
            const auto value = entry.find(name);
            if (value == entry.end()) {
                reader.fail(at, "expected a member \"" + name + "\" (its value)");
            }
            const std::optional<std::size_t> level = level_of[p](*value);
            if (!level) {
                reader.fail(at + "/" + token(name),
                            value->dump() + " is not one of /tune_params/" + token(name));
            }
            point.levels.push_back(*level);
        }
        if (const auto [earlier, fresh] = seen.emplace(point.levels, key); !fresh) {
            reader.fail(at, "the same configuration as /cache/" + token(earlier->second));
        }
        point.name = point_name(recording.name, recording.parameters, point.levels);
        point.timestamp = detail::metadata_text(entry, "timestamp");
        const auto time = entry.find("time");
        if (time == entry.end()) {
            reader.fail(at, "expected a member \"time\" (milliseconds, or why it failed)");
        }
        if (time->is_string()) {
            point.error = time->get<std::string>();
            if (point.error.empty()) {
                reader.fail(at + "/time", "expected a failure's name, not an empty string");
            }
            point.invalidity = detail::kernel_tuner_invalidity(point.error);
        } else if (const auto times = entry.find("times");
                   times != entry.end() && times->is_array() && !times->empty()) {
            if (times->size() > max_times) {
                reader.fail(at + "/times", "more than " + std::to_string(max_times) + " times");
            }
            for (std::size_t t = 0; t < times->size(); ++t) {
                point.times_ns.push_back(
                    time_ns(reader, (*times)[t], at + "/times/" + std::to_string(t)));
            }
        } else {
            point.times_ns.push_back(time_ns(reader, *time, at + "/time"));
        }
        recording.points.push_back(std::move(point));
    }
    if (recording.points.empty()) {
        reader.fail("/cache", "expected at least one configuration");
    }
    return recording;
}

/// A key as a tune report writes it, for messages: `dtype=f32,n=4096` (names in JSON order).
std::string key_text(const nlohmann::json& key) {
    std::string text;
    for (const auto& [name, value] : key.items()) {
        text += (text.empty() ? "" : ",") + name + "=" + value_text(value);
    }
    return text.empty() ? "(no parameters)" : text;
}

/// `object`'s string member `name`, or `fallback` when it has none.
std::string optional_string(const Reader& reader, const nlohmann::json& object,
                            const std::string& at, const std::string& name,
                            const std::string& fallback) {
    const auto it = object.find(name);
    if (it == object.end()) {
        return fallback;
    }
    if (!it->is_string()) {
        reader.fail(at + "/" + token(name), "expected a string");
    }
    return it->get<std::string>();
}

void add_once(std::vector<std::string>& names, const std::string& name) {
    if (std::find(names.begin(), names.end(), name) == names.end()) {
        names.push_back(name);
    }
}

/// A family's name, and whether it has grid parameters: one without (a lone reference) is no
/// space to search.
std::pair<std::string, bool> family_shape(const Reader& reader, const nlohmann::json& family,
                                          const std::string& at) {
    using Type = nlohmann::json::value_t;
    if (!family.is_object()) {
        reader.fail(at, "expected an object");
    }
    std::string name =
        reader.member(family, at, "name", Type::string, "a string").get<std::string>();
    const auto grid = family.find("grid");
    if (grid != family.end() && !grid->is_array()) {
        reader.fail(at + "/grid", "expected an array of parameters");
    }
    return {std::move(name), grid != family.end() && !grid->empty()};
}

/// Each key of a problem as text, after checking its shape.
std::vector<std::string> key_texts(const Reader& reader, const nlohmann::json& problem,
                                   const std::string& problem_at) {
    using Type = nlohmann::json::value_t;
    const nlohmann::json& keys =
        reader.member(problem, problem_at, "keys", Type::array, "an array of keys");
    if (keys.empty()) {
        reader.fail(problem_at + "/keys", "expected at least one key");
    }
    std::vector<std::string> texts;
    for (std::size_t k = 0; k < keys.size(); ++k) {
        const std::string at = problem_at + "/keys/" + std::to_string(k);
        if (!keys[k].is_object()) {
            reader.fail(at, "expected an object");
        }
        const auto key = keys[k].find("key");
        if (key != keys[k].end() && !key->is_object()) {
            reader.fail(at + "/key", "expected an object of parameter values");
        }
        texts.push_back(key == keys[k].end() ? "(no key)" : key_text(*key));
    }
    return texts;
}

/// Where the space a tune report is read from lies, and the other spaces the report holds.
struct SpaceChoice {
    std::size_t problem = 0;
    std::size_t family = 0;
    std::size_t key = 0;
    std::vector<std::string> other_families;
    std::vector<std::string> other_keys;
};

/// The first problem and family that `select` wants in which exactly one key matches.
SpaceChoice choose_space(const Reader& reader, const nlohmann::json& problems,
                         const RecordingSelection& select) {
    using Type = nlohmann::json::value_t;
    if (problems.empty()) {
        reader.fail("/problems", "expected at least one problem");
    }
    std::optional<SpaceChoice> chosen;
    std::vector<std::string> families;    // every family, for a message
    std::vector<std::string> searchable;  // those with grid parameters
    std::vector<std::string> keys_seen;   // of the problems that have the wanted family
    std::vector<std::string> keys_at;     // where those problems' keys are
    for (std::size_t p = 0; p < problems.size(); ++p) {
        const std::string at = "/problems/" + std::to_string(p);
        if (!problems[p].is_object()) {
            reader.fail(at, "expected an object");
        }
        const nlohmann::json& list =
            reader.member(problems[p], at, "families", Type::array, "an array of families");
        for (std::size_t f = 0; f < list.size(); ++f) {
            const auto [name, has_grid] =
                family_shape(reader, list[f], at + "/families/" + std::to_string(f));
            add_once(families, name);
            if (has_grid) {
                add_once(searchable, name);
            }
            const bool wanted = select.family.empty() ? has_grid : name == select.family;
            if (chosen || !wanted) {
                continue;
            }
            const std::vector<std::string> texts = key_texts(reader, problems[p], at);
            std::vector<std::size_t> matching;
            for (std::size_t k = 0; k < texts.size(); ++k) {
                const nlohmann::json& entry = problems[p]["keys"][k];
                if (!select.key_matches ||
                    (entry.contains("key") && select.key_matches(entry.at("key")))) {
                    matching.push_back(k);
                }
            }
            if (select.key_matches && matching.size() > 1) {
                std::vector<std::string> named;
                for (const std::size_t k : matching) {
                    named.push_back(texts[k]);
                }
                reader.fail(at + "/keys", select.key_description + " matches " +
                                              std::to_string(matching.size()) + " keys (" +
                                              base::join_some(named) +
                                              "); name more of their parameters");
            }
            if (matching.empty()) {
                for (const std::string& text : texts) {
                    add_once(keys_seen, text);
                }
                add_once(keys_at, at + "/keys");
                continue;
            }
            chosen = SpaceChoice{p, f, matching.front(), {}, {}};
            for (std::size_t k = 0; k < texts.size(); ++k) {
                if (k != matching.front()) {
                    chosen->other_keys.push_back(texts[k]);
                }
            }
            chosen->other_families.push_back(name);  // taken out below: the chosen one
        }
    }
    if (chosen) {
        const std::string name = chosen->other_families.front();
        chosen->other_families.clear();
        for (const std::string& other : searchable) {
            if (other != name) {
                chosen->other_families.push_back(other);
            }
        }
        return *chosen;
    }
    if (!keys_at.empty()) {
        reader.fail(keys_at.size() == 1 ? keys_at.front() : std::string("/problems"),
                    "no key matches " + select.key_description +
                        (keys_at.size() == 1 ? "; the report's keys are "
                                             : "; the keys of the problems with that family are ") +
                        base::join_some(keys_seen));
    }
    const std::string listed = families.empty()
                                   ? std::string()
                                   : "; the report's families are " + base::join_some(families);
    if (select.family.empty()) {
        reader.fail("/problems", "expected a family with grid parameters" + listed);
    }
    reader.fail("/problems", "no family \"" + select.family + "\"" + listed);
}

/// A `tune --json` report: the key and family `select` picks, over that family's grid.
/// Candidates of other families, and those never run or skipped by the plan, are left out.
Recording read_tune_report(const Reader& reader, const nlohmann::json& json,
                           const RecordingSelection& select) {
    using Type = nlohmann::json::value_t;
    const nlohmann::json& problems =
        reader.member(json, "", "problems", Type::array, "an array of problems");
    const SpaceChoice choice = choose_space(reader, problems, select);
    const nlohmann::json& problem = problems.at(choice.problem);
    const std::string problem_at = "/problems/" + std::to_string(choice.problem);
    const nlohmann::json& family = problem.at("families").at(choice.family);
    const std::string family_at = problem_at + "/families/" + std::to_string(choice.family);
    Recording recording;
    recording.name = family.at("name").get<std::string>();
    recording.other_families = choice.other_families;
    recording.other_keys = choice.other_keys;
    const nlohmann::json& grid =
        reader.member(family, family_at, "grid", Type::array, "an array of parameters");
    if (grid.empty() || grid.size() > max_parameters) {
        reader.fail(family_at + "/grid",
                    "expected 1 to " + std::to_string(max_parameters) + " parameters");
    }
    for (std::size_t g = 0; g < grid.size(); ++g) {
        const std::string at = family_at + "/grid/" + std::to_string(g);
        if (!grid[g].is_object()) {
            reader.fail(at, "expected an object with \"parameter\" and \"values\"");
        }
        RecordedParameter parameter{
            reader.member(grid[g], at, "parameter", Type::string, "a string").get<std::string>(),
            {}};
        const nlohmann::json& values =
            reader.member(grid[g], at, "values", Type::array, "an array of values");
        if (values.empty() || values.size() > max_values) {
            reader.fail(at + "/values", "expected 1 to " + std::to_string(max_values) + " values");
        }
        parameter.values = distinct_values(reader, values, at + "/values");
        recording.parameters.push_back(std::move(parameter));
    }
    const nlohmann::json& keys = problem.at("keys");
    const std::size_t key_index = choice.key;
    const std::string key_at = problem_at + "/keys/" + std::to_string(key_index);
    if (const auto key = keys[key_index].find("key"); key != keys[key_index].end()) {
        recording.key = *key;
    }
    recording.recorded_at = detail::metadata_text(keys[key_index], "tuned_at");
    recording.device = detail::metadata_text(json.value("device", nlohmann::json()), "device_name");
    const nlohmann::json& candidates =
        reader.member(keys[key_index], key_at, "candidates", Type::array, "an array of candidates");
    const auto level_of = detail::levels_of(recording.parameters);
    for (std::size_t c = 0; c < candidates.size() && c < max_points; ++c) {
        const std::string at = key_at + "/candidates/" + std::to_string(c);
        const nlohmann::json& candidate = candidates[c];
        if (!candidate.is_object()) {
            reader.fail(at, "expected an object");
        }
        if (optional_string(reader, candidate, at, "family", "") != recording.name) {
            continue;
        }
        const std::string status =
            reader.member(candidate, at, "status", Type::string, "a string").get<std::string>();
        if (status == "not run" || status == "skipped") {
            continue;
        }
        RecordedPoint point;
        point.name =
            reader.member(candidate, at, "name", Type::string, "a string").get<std::string>();
        const nlohmann::json& values =
            reader.member(candidate, at, "point", Type::object, "an object of values");
        for (std::size_t p = 0; p < recording.parameters.size(); ++p) {
            const std::string& name = recording.parameters[p].name;
            const auto value = values.find(name);
            const std::optional<std::size_t> level =
                value == values.end() ? std::nullopt : level_of[p](*value);
            if (!level) {
                reader.fail(at + "/point",
                            "expected a value of \"" + name + "\" from the family's grid");
            }
            point.levels.push_back(*level);
        }
        if (status == "winner" || status == "tied" || status == "ok" || status == "unchecked") {
            const nlohmann::json& samples =
                reader.member(candidate, at, "samples_ns", Type::array, "an array of samples");
            for (std::size_t s = 0; s < samples.size() && s < max_times; ++s) {
                point.times_ns.push_back(
                    time_ns(reader, samples[s], at + "/samples_ns/" + std::to_string(s), false));
            }
            if (point.times_ns.empty()) {
                reader.fail(at + "/samples_ns",
                            "expected at least one sample of a ranked candidate");
            }
        } else {
            point.error = optional_string(reader, candidate, at, "reason", status);
            point.invalidity = status == "wrong output" ? "correctness"
                               : status == "timed out"  ? "timeout"
                                                        : "runtime";
        }
        recording.points.push_back(std::move(point));
    }
    if (recording.points.empty()) {
        const auto key = keys[key_index].find("key");
        reader.fail(key_at + "/candidates",
                    "expected at least one candidate of family \"" + recording.name +
                        "\" that ran or failed at key " +
                        (key == keys[key_index].end() ? std::string("(no key)") : key_text(*key)) +
                        (recording.other_keys.empty() ? "" : " (--key picks another)"));
    }
    return recording;
}

}  // namespace

Recording read_recording(const nlohmann::json& json, std::string_view source,
                         const RecordingSelection& select) {
    const Reader reader(source);
    if (!json.is_object()) {
        reader.fail("",
                    "expected an object: a Kernel Tuner cache file, a T4 results file or a "
                    "tune --json report");
    }
    if (json.contains("problems")) {
        // A replay's report has the shape of a tune report but holds only statistics of times
        // drawn from its recording: read as a space, every point would lack its readings.
        if (json.value("command", nlohmann::json()) == "replay") {
            // The file named as JSON writes it: quoted, any control character escaped.
            const nlohmann::json& problems = json["problems"];
            const std::string named =
                problems.is_array() && !problems.empty() && problems[0].is_object() &&
                        problems[0].contains("file") && problems[0]["file"].is_string()
                    ? ", " + problems[0]["file"].dump()
                    : "";
            reader.fail("/command",
                        "expected the report of a tune run; a replay's report holds no readings "
                        "of its own (replay the recording it names at /problems/0/file" +
                            named + ")");
        }
        return read_tune_report(reader, json, select);
    }
    const bool t4 = json.contains("results");
    if (!select.family.empty() || select.key_matches) {
        reader.fail("", std::string(t4 ? "a T4 results file" : "a Kernel Tuner cache file") +
                            " holds one space: a family or key is chosen only in a tune --json "
                            "report");
    }
    return t4 ? detail::read_t4(reader, json) : read_kernel_tuner(reader, json);
}

double recorded_mean_ns(const RecordedPoint& point) {
    if (point.times_ns.empty()) {
        return 0;
    }
    return std::accumulate(point.times_ns.begin(), point.times_ns.end(), 0.0) /
           static_cast<double>(point.times_ns.size());
}

}  // namespace spvtune::tune
