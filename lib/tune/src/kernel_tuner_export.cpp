#include <map>
#include <numeric>
#include <stdexcept>
#include <string>

#include <spvtune/tune/recording.hpp>

namespace spvtune::tune {
namespace {

/// A value as Python's str() spells it, which is how Kernel Tuner builds a configuration's cache
/// key: True and False, None, strings unquoted; numbers as JSON writes them, the shortest form
/// that reads back (Python's float repr agrees but for 1e15 <= |x| < 1e16).
std::string python_text(const nlohmann::json& value) {
    if (value.is_boolean()) {
        return value.get<bool>() ? "True" : "False";
    }
    if (value.is_null()) {
        return "None";
    }
    return value.is_string() ? value.get<std::string>() : value.dump();
}

}  // namespace

nlohmann::json kernel_tuner_cache(const Recording& recording, std::string_view written_at) {
    nlohmann::json keys = nlohmann::json::array();
    nlohmann::json values = nlohmann::json::object();
    for (const RecordedParameter& parameter : recording.parameters) {
        keys.push_back(parameter.name);
        values[parameter.name] = parameter.values;
    }
    nlohmann::json cache = nlohmann::json::object();
    std::map<std::string, const RecordedPoint*> written;
    for (const RecordedPoint& point : recording.points) {
        std::string key;
        nlohmann::json entry = nlohmann::json::object();
        for (std::size_t p = 0; p < recording.parameters.size(); ++p) {
            const nlohmann::json& value = recording.parameters[p].values[point.levels[p]];
            key += (p == 0 ? "" : ",") + python_text(value);
            entry[recording.parameters[p].name] = value;
        }
        if (const auto [earlier, fresh] = written.emplace(key, &point); !fresh) {
            throw std::runtime_error(
                "cannot write a Kernel Tuner cache file: " + earlier->second->name + " and " +
                point.name + " would share the key \"" + key +
                "\" (Kernel Tuner spells values as Python does)");
        }
        const double total_ms =
            std::accumulate(point.times_ns.begin(), point.times_ns.end(), 0.0) / 1e6;
        if (point.error.empty()) {
            entry["time"] = recorded_mean_ns(point) / 1e6;
            nlohmann::json times = nlohmann::json::array();
            for (const double ns : point.times_ns) {
                times.push_back(ns / 1e6);
            }
            entry["times"] = std::move(times);
        } else {
            entry["time"] = point.error;
        }
        entry["compile_time"] = 0;
        entry["verification_time"] = 0;
        entry["benchmark_time"] = total_ms;
        entry["strategy_time"] = 0;
        entry["framework_time"] = 0;
        entry["timestamp"] = !point.timestamp.empty()         ? point.timestamp
                             : !recording.recorded_at.empty() ? recording.recorded_at
                                                              : std::string(written_at);
        cache[key] = std::move(entry);
    }
    return {{"schema_version", "1.0.0"},
            {"device_name", recording.device},
            {"kernel_name", recording.name},
            {"problem_size", recording.problem_size},
            {"tune_params_keys", std::move(keys)},
            {"tune_params", std::move(values)},
            {"objective", "time"},
            {"cache", std::move(cache)}};
}

}  // namespace spvtune::tune
