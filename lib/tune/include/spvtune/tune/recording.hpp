#pragma once

#include <cstddef>
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
};

/// Reads a recording from parsed JSON: a Kernel Tuner cache file (`tune_params_keys`,
/// `tune_params`, `cache` of configurations with `time` in milliseconds, `times`, or a failure
/// string as `time`) or a `spvtune tune --json` report (the first key of the first problem, the
/// first family's grid). Throws std::runtime_error naming `source` and the JSON pointer of the
/// fault.
Recording read_recording(const nlohmann::json& json, std::string_view source);

/// The recording as a Kernel Tuner cache file: `tune_params_keys`, `tune_params` and `cache`,
/// times in milliseconds, failures as their reason.
nlohmann::json kernel_tuner_cache(const Recording& recording);

/// The mean recorded time of a point that ran, in nanoseconds (the value a replay calls true).
double recorded_mean_ns(const RecordedPoint& point);

}  // namespace spvtune::tune
