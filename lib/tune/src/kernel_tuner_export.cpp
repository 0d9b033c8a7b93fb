#include <array>
#include <charconv>
#include <map>
#include <numeric>
#include <stdexcept>
#include <string>
#include <system_error>

#include <spvtune/tune/recording.hpp>

#include "recording_json.hpp"

namespace spvtune::tune {
namespace {

/// A float as Python's repr() spells it: the shortest digits that read back, in positional
/// notation for decimal exponents from -4 to 15 (with `.0` when whole), else `1.5e+16`.
std::string python_float_text(double value) {
    std::array<char, 64> buffer{};
    const auto [end, error] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value,
                                            std::chars_format::scientific);
    const std::string scientific(buffer.data(), error == std::errc{} ? end : buffer.data());
    const std::size_t e = scientific.find('e');
    const bool negative = scientific.front() == '-';
    std::string digits;
    for (const char c : scientific.substr(negative ? 1 : 0, e - (negative ? 1 : 0))) {
        if (c != '.') {
            digits += c;
        }
    }
    const int exponent = std::stoi(scientific.substr(e + 1));
    std::string text = negative ? "-" : "";
    if (exponent < -4 || exponent >= 16) {
        text += digits.substr(0, 1);
        if (digits.size() > 1) {
            text += "." + digits.substr(1);
        }
        const int magnitude = exponent < 0 ? -exponent : exponent;
        return text + (exponent < 0 ? "e-" : "e+") + (magnitude < 10 ? "0" : "") +
               std::to_string(magnitude);
    }
    if (exponent < 0) {
        return text + "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
    }
    const auto whole = static_cast<std::size_t>(exponent) + 1;
    if (digits.size() <= whole) {
        return text + digits + std::string(whole - digits.size(), '0') + ".0";
    }
    return text + digits.substr(0, whole) + "." + digits.substr(whole);
}

/// A value as Python's str() spells it, which is how Kernel Tuner builds a configuration's cache
/// key: True and False, None, strings unquoted, floats as repr() writes them.
std::string python_text(const nlohmann::json& value) {
    if (value.is_boolean()) {
        return value.get<bool>() ? "True" : "False";
    }
    if (value.is_null()) {
        return "None";
    }
    if (value.is_number_float()) {
        return python_float_text(value.get<double>());
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
            entry["time"] = total_ms / static_cast<double>(point.times_ns.size());
            nlohmann::json times = nlohmann::json::array();
            for (const double ns : point.times_ns) {
                times.push_back(ns / 1e6);
            }
            entry["times"] = std::move(times);
        } else {
            entry["time"] = detail::kernel_tuner_failure(point);
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
    nlohmann::json file{{"schema_version", "1.0.0"},        {"device_name", recording.device},
                        {"kernel_name", recording.name},    {"tune_params_keys", std::move(keys)},
                        {"tune_params", std::move(values)}, {"objective", "time"},
                        {"cache", std::move(cache)}};
    // Kernel Tuner refuses a cache of another problem size than it is tuning: one it cannot
    // know is left out, not guessed.
    if (!recording.problem_size.is_null()) {
        file["problem_size"] = recording.problem_size;
    }
    return file;
}

}  // namespace spvtune::tune
