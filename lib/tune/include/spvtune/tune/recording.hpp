#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace spvtune::tune {

/// A parameter of a recorded space and its values, in the grid's order (the first varies
/// slowest). Values are numbers or strings as the recording spelt them.
struct RecordedParameter {
    std::string name;
    std::vector<nlohmann::json> values;
};

/// A configuration a recording measured: its grid levels and the run times measured (several
/// repeats where the recording kept them), or why it failed.
struct RecordedPoint {
    std::string name;
    /// Per parameter, the index of the point's value in RecordedParameter::values.
    std::vector<std::size_t> levels;
    /// Every recorded time in nanoseconds; empty when the point failed.
    std::vector<double> times_ns;
    /// Why it failed ("InvalidConfig", "CompilationFailedConfig", a tune report's reason);
    /// empty when it ran.
    std::string error;
};

/// A search space as measured once: the grid and the points measured. A configuration of the
/// grid that is not among the points is outside the space.
struct Recording {
    std::string name;
    std::vector<RecordedParameter> parameters;
    std::vector<RecordedPoint> points;
    /// Read from a tune report: the key's parameters and values as the report wrote them, and
    /// how many keys and families its problem holds (a caller that took the defaults can say
    /// that others exist). An empty object and 0 for a Kernel Tuner file, which holds one space.
    nlohmann::json key = nlohmann::json::object();
    std::size_t keys_in_problem = 0;
    std::size_t families_in_problem = 0;
};

/// Which space of a tune report to read; a Kernel Tuner file holds one, and ignores this.
struct RecordingSelection {
    /// The family whose grid is the space, from the first problem that has it. Empty: the first
    /// family with grid parameters (a lone reference is no space to search).
    std::string family;
    /// Whether a key (the report's object of parameter values) is the one wanted; exactly one
    /// key of the problem may match. Empty: the problem's first key.
    std::function<bool(const nlohmann::json& key)> key_matches;
    /// How messages name what key_matches wants (`--key n=4096`).
    std::string key_wanted;
};

/// Reads a recording from parsed JSON: a Kernel Tuner cache file (`tune_params_keys`,
/// `tune_params`, `cache` of configurations with `time` in milliseconds, `times`, or a failure
/// string as `time`) or a `spvtune tune --json` report (the key and family `select` picks).
/// Throws std::runtime_error naming `source` and the JSON pointer of the fault, or what was
/// asked for and what the report holds when nothing or several keys match.
Recording read_recording(const nlohmann::json& json, std::string_view source,
                         const RecordingSelection& select = {});

/// The recording as a Kernel Tuner cache file: `tune_params_keys`, `tune_params` and `cache`,
/// times in milliseconds, failures as their reason.
nlohmann::json kernel_tuner_cache(const Recording& recording);

/// The mean recorded time of a point that ran, in nanoseconds (the value a replay calls true).
double recorded_mean_ns(const RecordedPoint& point);

}  // namespace spvtune::tune
