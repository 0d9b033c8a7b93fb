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
    /// How it failed, in the T4 format's words: `compile`, `runtime`, `timeout`, `correctness`
    /// or `constraints`; empty when it ran.
    std::string invalidity;
    /// When it was measured, as the recording wrote it (a Kernel Tuner entry's `timestamp`);
    /// empty when the recording does not say.
    std::string timestamp;
};

/// A search space as measured once: the grid and the points measured. A configuration of the
/// grid that is not among the points is outside the space.
struct Recording {
    std::string name;
    std::vector<RecordedParameter> parameters;
    std::vector<RecordedPoint> points;
    /// Read from a tune report: the key's parameters and values as the report wrote them (an
    /// empty object for a key it wrote without them, and for a Kernel Tuner file).
    nlohmann::json key = nlohmann::json::object();
    /// The device it was measured on, as the recording names it (Kernel Tuner's `device_name`,
    /// a tune report's `device.device_name`); empty when it does not say.
    std::string device;
    /// The problem's size as a Kernel Tuner cache file gives it (`problem_size`, as written);
    /// null when the recording does not say.
    nlohmann::json problem_size;
    /// When it was measured, where its points do not say, as the recording wrote it (a tune
    /// report key's `tuned_at`, ISO 8601); empty when it does not say.
    std::string recorded_at;
    /// Read from a tune report: the other spaces it holds, so that a caller that took the
    /// defaults can say so. The other families with grid parameters (in any of its problems),
    /// and the other keys of the problem read (`dtype=f32,n=4096`).
    std::vector<std::string> other_families;
    std::vector<std::string> other_keys;
};

/// Which space of a tune report to read. A Kernel Tuner file holds one: a selection that names
/// a family or a key is refused there.
struct RecordingSelection {
    /// The family whose grid is the space. Empty: the first family with grid parameters (a
    /// lone reference is no space to search).
    std::string family;
    /// Whether a key (the report's object of parameter values) is the one wanted. The space is
    /// read from the first problem that has the family and a key that matches; more than one
    /// matching key there is an error. Empty: that problem's first key.
    std::function<bool(const nlohmann::json& key)> key_matches;
    /// How messages name what key_matches wants (`--key n=4096`); set it with key_matches.
    std::string key_description;
};

/// Reads a recording from parsed JSON: a Kernel Tuner cache file (`tune_params_keys`,
/// `tune_params`, `cache` of configurations with `time` in milliseconds, `times`, or a failure
/// string as `time`), a T4 results file (`results`, each with a `configuration`, `invalidity`,
/// `correctness` and `times.runtimes` in milliseconds or a `time` measurement; the grid is every
/// value its configurations use, in ascending order, the parameters in name order) or a
/// `spvtune tune --json` report (the space `select` picks). Throws
/// std::runtime_error naming `source` and the JSON pointer of the fault; when no family or key
/// meets `select`, or several keys do, the message lists what the report holds. What
/// key_matches throws passes through.
Recording read_recording(const nlohmann::json& json, std::string_view source,
                         const RecordingSelection& select = {});

/// A recording file's JSON.
struct RecordingText {
    nlohmann::json json;
    /// A Kernel Tuner cache file that a stopped run left open, read closed (below).
    bool unfinished = false;
    /// Of an unfinished file: bytes of an entry the stop cut off that were left out.
    std::size_t dropped_bytes = 0;
};

/// Parses a recording file's text. Kernel Tuner writes its cache file an entry a line and closes
/// it when tuning ends, so a stopped run leaves the file open (Kernel Tuner reads such a file back
/// by closing it): text that names a cache and fails to parse only at its end is closed after its
/// last complete entry, leaving out a last line the stop cut off, when that makes an object with
/// `tune_params` and a `cache` object. Throws the text's own nlohmann::json::parse_error
/// otherwise.
RecordingText parse_recording_text(std::string_view text);

/// The recording as a Kernel Tuner cache file, with the members Kernel Tuner's cache schema
/// 1.0.0 requires: `device_name`, `problem_size` (only where the recording gave one: Kernel
/// Tuner refuses a cache of another size), `tune_params_keys`, `tune_params` and `cache`, each
/// configuration under the key Kernel Tuner looks it up by (its values as Python's str() spells
/// them, joined by commas: `128,True,2.5`; the schema's own key pattern admits integers only),
/// times in milliseconds, a failure as the one of Kernel Tuner's three names it reads back
/// (CompilationFailedConfig, InvalidConfig, else RuntimeFailedConfig). Of the timings Kernel
/// Tuner keeps beside, `benchmark_time` is the sum of the recorded times and the others
/// (compile, verification, strategy, framework) are 0: a recording holds none of them.
/// `timestamp` is when the point was measured, else when the recording was, else `written_at`
/// (ISO 8601, the time the file is written). Throws
/// std::runtime_error when two configurations would share a key (a string "True" beside a
/// boolean true): Kernel Tuner could tell them apart no more than the file could.
nlohmann::json kernel_tuner_cache(const Recording& recording, std::string_view written_at);

/// The recording as a T4 results file (schema 1.0.0, as Kernel Tuner writes one): per point its
/// configuration, `times.runtimes` and a `time` measurement in milliseconds, its invalidity
/// (`correct` when it ran) and correctness (0 only for a wrong output).
nlohmann::json t4_results(const Recording& recording);

/// The mean recorded time of a point that ran, in nanoseconds (the value a replay calls true).
double recorded_mean_ns(const RecordedPoint& point);

}  // namespace spvtune::tune
