#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include <spvtune/base/name_list.hpp>
#include <spvtune/tune/recording.hpp>

#include "recording_json.hpp"

namespace spvtune::tune {
namespace detail {
namespace {

const std::vector<std::string> t4_invalidities = {"correct", "compile",     "runtime",
                                                  "timeout", "correctness", "constraints"};

/// The parameters every configuration names (those of the first, in name order) and every
/// value any of them uses, ascending.
std::vector<RecordedParameter> t4_parameters(const Reader& reader, const nlohmann::json& results) {
    using Type = nlohmann::json::value_t;
    const nlohmann::json& first = reader.member(results[0], "/results/0", "configuration",
                                                Type::object, "an object of parameter values");
    if (first.empty() || first.size() > max_parameters) {
        reader.fail("/results/0/configuration",
                    "expected 1 to " + std::to_string(max_parameters) + " parameters");
    }
    std::vector<RecordedParameter> parameters;
    std::vector<DistinctValues> met;
    for (const auto& [name, value] : first.items()) {
        parameters.push_back({name, {}});
        met.emplace_back();
    }
    for (std::size_t r = 0; r < results.size(); ++r) {
        const std::string at = "/results/" + std::to_string(r);
        if (!results[r].is_object()) {
            reader.fail(at, "expected an object");
        }
        const nlohmann::json& configuration = reader.member(
            results[r], at, "configuration", Type::object, "an object of parameter values");
        for (const auto& item : configuration.items()) {
            const std::string& name = item.key();
            const nlohmann::json& value = item.value();
            const auto parameter =
                std::find_if(parameters.begin(), parameters.end(),
                             [&](const RecordedParameter& p) { return p.name == name; });
            const std::string value_at = at + "/configuration/" + token(name);
            if (parameter == parameters.end()) {
                reader.fail(value_at,
                            "\"" + name + "\" is not a parameter of " + "/results/0/configuration");
            }
            if (value.is_number_float() && !std::isfinite(value.get<double>())) {
                reader.fail(value_at, "expected a finite number");
            }
            DistinctValues& values = met[static_cast<std::size_t>(parameter - parameters.begin())];
            if (values.add(reader, value, value_at)) {
                if (parameter->values.size() == max_values) {
                    reader.fail(value_at, "more than " + std::to_string(max_values) +
                                              " values of \"" + name + "\"");
                }
                parameter->values.push_back(value);
            }
        }
        if (configuration.size() != parameters.size()) {
            for (const RecordedParameter& parameter : parameters) {
                if (!configuration.contains(parameter.name)) {
                    reader.fail(at + "/configuration",
                                "expected a member \"" + parameter.name + "\" (its value)");
                }
            }
        }
    }
    for (RecordedParameter& parameter : parameters) {
        sort_levels(parameter.values);
    }
    return parameters;
}

/// A `time` measurement's value in nanoseconds, in the unit it names (milliseconds by default,
/// as Kernel Tuner writes it).
double measurement_ns(const Reader& reader, const nlohmann::json& measurement,
                      const std::string& at) {
    static const std::map<std::string, double, std::less<>> ns_per_unit = {
        {"", 1e6}, {"ms", 1e6}, {"s", 1e9}, {"us", 1e3}, {"ns", 1}};
    double ns_per = 1e6;
    if (const auto unit = measurement.find("unit"); unit != measurement.end()) {
        const auto it =
            unit->is_string() ? ns_per_unit.find(unit->get<std::string>()) : ns_per_unit.end();
        if (it == ns_per_unit.end()) {
            reader.fail(at + "/unit", "expected one of the units s, ms, us, ns");
        }
        ns_per = it->second;
    }
    const auto value = measurement.find("value");
    if (value == measurement.end() || !value->is_number() || !(value->get<double>() > 0) ||
        !std::isfinite(value->get<double>() * ns_per)) {
        reader.fail(at, "expected a member \"value\" (a positive time in its unit)");
    }
    return value->get<double>() * ns_per;
}

/// The index of a result's measurement named `time`, if it has one.
std::optional<std::size_t> time_measurement(const nlohmann::json& result) {
    const auto measurements = result.find("measurements");
    if (measurements == result.end() || !measurements->is_array()) {
        return std::nullopt;
    }
    for (std::size_t m = 0; m < measurements->size(); ++m) {
        const nlohmann::json& measurement = (*measurements)[m];
        if (measurement.is_object() && measurement.value("name", nlohmann::json()) == "time") {
            return m;
        }
    }
    return std::nullopt;
}

/// The failure a result names as the value of its `time` measurement, when it has no run times:
/// Kernel Tuner's converter keeps a failure other than its three usual ones as `correct`, with
/// the failure's name (`ErrorConfig`) where the time would be.
std::optional<std::string> failure_as_time(const nlohmann::json& result) {
    const auto times = result.find("times");
    if (times != result.end() && times->is_object()) {
        if (const auto runtimes = times->find("runtimes");
            runtimes != times->end() && runtimes->is_array() && !runtimes->empty()) {
            return std::nullopt;
        }
    }
    const std::optional<std::size_t> m = time_measurement(result);
    if (!m) {
        return std::nullopt;
    }
    const nlohmann::json value = result["measurements"][*m].value("value", nlohmann::json());
    if (value.is_string() && !value.get<std::string>().empty()) {
        return value.get<std::string>();
    }
    return std::nullopt;
}

/// The run times of a correct result: `times.runtimes` (milliseconds), else its `time`
/// measurement.
std::vector<double> t4_times(const Reader& reader, const nlohmann::json& result,
                             const std::string& at) {
    using Type = nlohmann::json::value_t;
    const nlohmann::json& times =
        reader.member(result, at, "times", Type::object, "an object of timings");
    std::vector<double> out;
    if (const auto runtimes = times.find("runtimes"); runtimes != times.end()) {
        if (!runtimes->is_array()) {
            reader.fail(at + "/times/runtimes", "expected an array of times in milliseconds");
        }
        if (runtimes->size() > max_times) {
            reader.fail(at + "/times/runtimes",
                        "more than " + std::to_string(max_times) + " times");
        }
        for (std::size_t t = 0; t < runtimes->size(); ++t) {
            out.push_back(
                time_ns(reader, (*runtimes)[t], at + "/times/runtimes/" + std::to_string(t)));
        }
    }
    if (!out.empty()) {
        return out;
    }
    if (const std::optional<std::size_t> m = time_measurement(result)) {
        out.push_back(measurement_ns(reader, result["measurements"][*m],
                                     at + "/measurements/" + std::to_string(*m)));
        return out;
    }
    reader.fail(at,
                "expected the run times of a correct result: times.runtimes (milliseconds) "
                "or a measurement named \"time\"");
}

}  // namespace

Recording read_t4(const Reader& reader, const nlohmann::json& json) {
    using Type = nlohmann::json::value_t;
    if (const auto version = json.find("schema_version"); version != json.end()) {
        if (!version->is_string() || !version->get<std::string>().starts_with("1.")) {
            reader.fail("/schema_version",
                        "expected a T4 schema version 1.x.y, got " + version->dump());
        }
    }
    const nlohmann::json& results =
        reader.member(json, "", "results", Type::array, "an array of results");
    if (results.empty()) {
        reader.fail("/results", "expected at least one result");
    }
    if (results.size() > max_points) {
        reader.fail("/results", "more than " + std::to_string(max_points) + " results");
    }
    Recording recording;
    recording.name = "recording";
    recording.parameters = t4_parameters(reader, results);
    const std::vector<LevelOf> level_of = levels_of(recording.parameters);
    std::map<std::vector<std::size_t>, std::size_t> seen;
    for (std::size_t r = 0; r < results.size(); ++r) {
        const std::string at = "/results/" + std::to_string(r);
        const nlohmann::json& configuration = results[r]["configuration"];
        RecordedPoint point;
        for (std::size_t p = 0; p < recording.parameters.size(); ++p) {
            // t4_parameters met every configuration's values.
            point.levels.push_back(*level_of[p](configuration[recording.parameters[p].name]));
        }
        if (const auto [earlier, fresh] = seen.emplace(point.levels, r); !fresh) {
            reader.fail(at + "/configuration",
                        "the same configuration as /results/" + std::to_string(earlier->second));
        }
        point.name = point_name(recording.name, recording.parameters, point.levels);
        point.timestamp = metadata_text(results[r], "timestamp");
        const std::string invalidity =
            reader.member(results[r], at, "invalidity", Type::string, "a string")
                .get<std::string>();
        if (std::find(t4_invalidities.begin(), t4_invalidities.end(), invalidity) ==
            t4_invalidities.end()) {
            reader.fail(at + "/invalidity", "expected one of " + base::join(t4_invalidities) +
                                                ", got \"" + invalidity + "\"");
        }
        const auto correctness = results[r].find("correctness");
        if (correctness == results[r].end() || !correctness->is_number()) {
            reader.fail(at, "expected a member \"correctness\" (a number, 1 when correct)");
        }
        if (invalidity != "correct") {
            point.error = point.invalidity = invalidity;
        } else if (correctness->get<double>() != 1) {
            // Correct by its invalidity but not by its check: a wrong output.
            point.error = point.invalidity = "correctness";
        } else if (std::optional<std::string> failure = failure_as_time(results[r])) {
            point.invalidity = kernel_tuner_invalidity(*failure);
            point.error = std::move(*failure);
        } else {
            point.times_ns = t4_times(reader, results[r], at);
        }
        recording.points.push_back(std::move(point));
    }
    return recording;
}

}  // namespace detail

nlohmann::json t4_results(const Recording& recording) {
    nlohmann::json results = nlohmann::json::array();
    for (const RecordedPoint& point : recording.points) {
        nlohmann::json configuration = nlohmann::json::object();
        for (std::size_t p = 0; p < recording.parameters.size(); ++p) {
            configuration[recording.parameters[p].name] =
                recording.parameters[p].values[point.levels[p]];
        }
        nlohmann::json runtimes = nlohmann::json::array();
        nlohmann::json measurements = nlohmann::json::array();
        std::string invalidity = "correct";
        if (point.error.empty()) {
            for (const double ns : point.times_ns) {
                runtimes.push_back(ns / 1e6);
            }
            measurements.push_back(
                {{"name", "time"}, {"value", recorded_mean_ns(point) / 1e6}, {"unit", "ms"}});
        } else {
            invalidity = point.invalidity.empty() ? "runtime" : point.invalidity;
        }
        results.push_back({{"configuration", std::move(configuration)},
                           {"times", {{"runtimes", std::move(runtimes)}}},
                           {"invalidity", invalidity},
                           {"correctness", invalidity == "correctness" ? 0 : 1},
                           {"measurements", std::move(measurements)},
                           {"objectives", nlohmann::json::array({"time"})}});
    }
    return {{"schema_version", "1.0.0"}, {"results", std::move(results)}};
}

}  // namespace spvtune::tune
