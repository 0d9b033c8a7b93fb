#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <nlohmann/json.hpp>

#include <spvtune/base/json_text.hpp>
#include <spvtune/base/name_list.hpp>
#include <spvtune/base/output_file.hpp>
#include <spvtune/problem/problem_key.hpp>
#include <spvtune/run/problem_tuning.hpp>
#include <spvtune/tune/detail/utc_time.hpp>
#include <spvtune/tune/replay.hpp>
#include <spvtune/tune/statistics.hpp>

#include "command.hpp"
#include "gzip_input.hpp"
#include "input_file.hpp"
#include "key_filter.hpp"
#include "path_options.hpp"
#include "report/key_json.hpp"
#include "sampling_options.hpp"

namespace spvtune::app {
namespace {

/// A recording larger than this is refused before it is parsed: the largest published spaces
/// take a few tens of megabytes, and parsed JSON takes many times its text.
constexpr std::size_t max_recording_bytes = std::size_t{256} << 20;
/// A Kernel Tuner cache nests four levels deep, a tune report a few more.
constexpr std::size_t max_recording_nesting = 32;

struct ReplayOptions {
    std::string recording;
    std::vector<std::string> key_filters;
    std::string family;
    problem::Settings overrides;
    std::string json_out;
    std::string kt_cache_out;
    std::string t4_out;
    std::optional<double> noise_cv;
};

/// What --key and --family pick from a tune report.
tune::RecordingSelection recording_selection(const ReplayOptions& options) {
    tune::RecordingSelection select;
    select.family = options.family;
    if (options.key_filters.empty()) {
        return select;
    }
    const auto filter = KeyFilter::parse(options.key_filters);
    if (!filter) {
        throw std::runtime_error(filter.error());
    }
    select.key_description = "--key " + filter.value().describe();
    select.key_matches = [filter = filter.value()](const nlohmann::json& json) {
        problem::ProblemKey key;
        try {
            from_json(json, key);
        } catch (const nlohmann::json::exception&) {
            return false;  // not a key as tune writes one: nothing it could match
        }
        return filter.matches(key);
    };
    return select;
}

/// The key a tune report's space was read at, as tune prints keys.
std::string recording_key_text(const tune::Recording& recording) {
    problem::ProblemKey key;
    try {
        from_json(recording.key, key);
    } catch (const nlohmann::json::exception&) {
        return recording.key.dump();
    }
    return problem::to_string(key);
}

/// A Kernel Tuner cache that a stopped run left open, closed: said on stderr once it reads.
tune::Recording read_unfinished(const std::string& path, const tune::RecordingText& parsed,
                                const tune::RecordingSelection& select) {
    tune::Recording recording;
    try {
        recording = tune::read_recording(parsed.json, path, select);
    } catch (const std::runtime_error& error) {
        throw std::runtime_error(std::string(error.what()) +
                                 " (the file ends unfinished, as a stopped Kernel Tuner run leaves "
                                 "its cache; it was read closed after its last complete line)");
    }
    std::cerr << "spvtune: " << path
              << ": an unfinished Kernel Tuner cache file (a stopped run leaves it open): read up "
                 "to its last complete entry";
    if (parsed.dropped_bytes > 0) {
        std::cerr << ", leaving out " << parsed.dropped_bytes
                  << " bytes of an entry the stop cut off";
    }
    std::cerr << '\n';
    return recording;
}

/// The recording's text: the file's bytes, decompressed when they are gzip data.
std::string recording_text(const std::string& path) {
    std::string bytes = read_input_file(path, "recording");
    // The benchmark hub also holds zip archives; their bytes would be refused as "a NUL byte".
    if (bytes.starts_with(std::string_view("PK\x03\x04", 4)) ||
        bytes.starts_with(std::string_view("PK\x05\x06", 4))) {
        throw std::runtime_error(path +
                                 ": a zip archive, not a recording: extract the recording "
                                 "(a .json file) from it first");
    }
    if (!is_gzip(bytes)) {
        return bytes;
    }
    try {
        return gunzip(bytes, max_recording_bytes);
    } catch (const std::runtime_error& error) {
        throw std::runtime_error(path + ": " + error.what());
    }
}

tune::Recording load_recording(const std::string& path, const tune::RecordingSelection& select) {
    const std::string text = recording_text(path);
    if (text.size() > max_recording_bytes) {
        throw std::runtime_error(path + ": the recording is larger than " +
                                 std::to_string(max_recording_bytes >> 20) + " MiB");
    }
    // Deep nesting would overflow the parser's stack; a NUL hides bytes after it.
    if (const auto fault = base::check_json_text(text, max_recording_nesting)) {
        const base::TextPosition at = base::position_in(text, fault->offset);
        throw std::runtime_error(path + ": not a JSON recording: line " + std::to_string(at.line) +
                                 ", column " + std::to_string(at.column) + ": " + fault->problem);
    }
    tune::RecordingText parsed;
    try {
        parsed = tune::parse_recording_text(text);
    } catch (const nlohmann::json::exception& error) {
        throw std::runtime_error(path + ": not a JSON recording: " + error.what());
    }
    tune::Recording recording = parsed.unfinished ? read_unfinished(path, parsed, select)
                                                  : tune::read_recording(parsed.json, path, select);
    // Kernel Tuner records the time beside any objective it tuned for (GFLOP/s, energy); a
    // replay minimises the time, which the user should not have to guess.
    if (const auto objective = parsed.json.find("objective");
        objective != parsed.json.end() && objective->is_string() && *objective != "time") {
        // Quoted as JSON: the name is the file's, control characters and all.
        std::cerr << "spvtune: " << path << ": the recording was tuned for " << objective->dump()
                  << "; the replay minimises its recorded times (\"time\")\n";
    }
    return recording;
}

void write_file(const std::string& path, const nlohmann::json& json, const char* what) {
    try {
        base::write_output_file(path, json.dump(2) + "\n");
    } catch (const std::system_error& error) {
        throw std::runtime_error(std::string("cannot write the ") + what + ": " + error.what());
    }
}

/// The search's result as a settled tuning would hold it, so the report reads like tune's.
tune::TuneEntry replay_entry(const tune::SearchSettings& settings,
                             const tune::SamplingSettings& sampling, tune::SearchOutcome outcome) {
    tune::TuneEntry entry;
    entry.ranking = std::move(outcome.benchmark.ranking);
    entry.failures = std::move(outcome.benchmark.failures);
    if (!entry.ranking.empty()) {
        entry.winner_name = entry.ranking.front().name;
        entry.winner_index = entry.ranking.front().index;
    }
    entry.settings = sampling;
    entry.settings["search"] = tune::search_summary_json(settings, outcome.trace);
    entry.search = std::move(outcome.trace);
    return entry;
}

nlohmann::json candidate_json(const tune::Recording& recording, const tune::RankedCandidate& ranked,
                              std::size_t rank) {
    const tune::RecordedPoint& recorded = recording.points[ranked.index];
    nlohmann::json point = nlohmann::json::object();
    for (std::size_t p = 0; p < recording.parameters.size(); ++p) {
        point[recording.parameters[p].name] = recording.parameters[p].values[recorded.levels[p]];
    }
    const auto& s = ranked.statistics;
    return {{"name", ranked.name},
            {"index", ranked.index},
            {"family", recording.name},
            {"point", std::move(point)},
            {"status", rank == 0 ? "winner" : "ok"},
            {"rank", rank + 1},
            {"eliminated", ranked.eliminated},
            {"statistics", {{"samples", s.samples}, {"median_ns", s.median_ns}}},
            {"recorded_mean_ns", tune::recorded_mean_ns(recorded)}};
}

/// The report `tune --json` writes, for the one key of a recorded space; each measured
/// candidate also carries its recorded mean, and the key the recorded best.
nlohmann::json replay_report(const ReplayOptions& options, const tune::Recording& recording,
                             const tune::SamplingSettings& sampling, const tune::TuneEntry& entry) {
    nlohmann::json grid = nlohmann::json::array();
    for (const tune::RecordedParameter& parameter : recording.parameters) {
        grid.push_back({{"parameter", parameter.name}, {"values", parameter.values}});
    }
    nlohmann::json candidates = nlohmann::json::array();
    for (std::size_t rank = 0; rank < entry.ranking.size(); ++rank) {
        candidates.push_back(candidate_json(recording, entry.ranking[rank], rank));
    }
    for (const tune::CandidateFailure& failure : entry.failures) {
        candidates.push_back({{"name", failure.name},
                              {"index", failure.index},
                              {"family", recording.name},
                              {"status", "error"},
                              {"reason", failure.reason}});
    }
    std::optional<std::size_t> best;
    for (std::size_t p = 0; p < recording.points.size(); ++p) {
        const tune::RecordedPoint& point = recording.points[p];
        if (point.error.empty() && (!best || tune::recorded_mean_ns(point) <
                                                 tune::recorded_mean_ns(recording.points[*best]))) {
            best = p;
        }
    }
    nlohmann::json key{{"key", recording.key},
                       {"status", entry.ranking.empty() ? "failed" : "tuned"},
                       {"settings", entry.settings},
                       {"search", search_json(entry)},
                       {"candidates", std::move(candidates)}};
    key["winner"] =
        entry.ranking.empty() ? nlohmann::json(nullptr) : nlohmann::json(entry.winner_name);
    key["recorded_best"] =
        best ? nlohmann::json{{"name", recording.points[*best].name},
                              {"mean_ns", tune::recorded_mean_ns(recording.points[*best])}}
             : nlohmann::json(nullptr);
    nlohmann::json problem{{"name", recording.name},
                           {"file", options.recording},
                           {"settings", sampling},
                           {"families", {{{"name", recording.name}, {"grid", std::move(grid)}}}},
                           {"keys", {std::move(key)}}};
    return {{"schema_version", 1},
            {"command", "replay"},
            {"spvtune_version", SPVTUNE_VERSION},
            {"problems", {std::move(problem)}}};
}

int run_replay(const ReplayOptions& options) {
    tune::Recording recording;
    try {
        recording = load_recording(options.recording, recording_selection(options));
    } catch (const std::runtime_error& error) {
        std::cerr << "spvtune: error: " << error.what() << '\n';
        return exit_usage;
    }
    // A report of several spaces replays one: say which, when a default chose it.
    if (options.family.empty() && !recording.other_families.empty()) {
        std::cerr << "spvtune: replaying family " << recording.name << " (the report also has "
                  << base::join_some(recording.other_families) << "; --family picks another)\n";
    }
    if (options.key_filters.empty() && !recording.other_keys.empty()) {
        std::cerr << "spvtune: replaying key " << recording_key_text(recording)
                  << " (the report also has " << base::join_some(recording.other_keys)
                  << "; --key picks another)\n";
    }
    if (!options.kt_cache_out.empty()) {
        write_file(options.kt_cache_out,
                   tune::kernel_tuner_cache(recording, tune::detail::utc_now_iso8601()),
                   "Kernel Tuner cache file");
    }
    if (!options.t4_out.empty()) {
        write_file(options.t4_out, tune::t4_results(recording), "T4 results file");
    }
    tune::SearchSettings settings = run::search_settings({}, options.overrides);
    const tune::SamplingSettings sampling;
    const tune::TuneEntry entry = replay_entry(
        settings, sampling,
        tune::replay_search(recording, settings, sampling, tune::ReplayNoise{options.noise_cv}));
    const tune::SearchTrace& trace = *entry.search;
    std::cout << "replay " << nlohmann::json(trace.strategy).get<std::string>() << " (seed "
              << trace.seed << "): measured " << trace.steps.size() << " of " << trace.runnable
              << " recorded points";
    if (options.noise_cv) {
        std::cout << ", each reading its recorded mean under log-normal noise of cv "
                  << *options.noise_cv;
    }
    std::cout << '\n';
    if (entry.ranking.empty()) {
        std::cout << "no point ran\n";
    } else {
        // Kernel Tuner's `time` is the mean, a cold first run included, while the race compares
        // medians: where the two rank the winner differently, both are said.
        const auto median_ns = [](const tune::RecordedPoint& point) {
            return tune::summarize(point.times_ns).median_ns;
        };
        const tune::RecordedPoint& winner = recording.points[entry.winner_index];
        double best_mean_ns = tune::recorded_mean_ns(winner);
        double best_median_ns = median_ns(winner);
        for (const tune::RecordedPoint& point : recording.points) {
            if (point.error.empty()) {
                best_mean_ns = std::min(best_mean_ns, tune::recorded_mean_ns(point));
                best_median_ns = std::min(best_median_ns, median_ns(point));
            }
        }
        const double by_mean = best_mean_ns / tune::recorded_mean_ns(winner);
        const double by_median = best_median_ns / median_ns(winner);
        char line[512];
        std::snprintf(line, sizeof line,
                      "winner %s: %.6g ms recorded mean, %.4f of the recorded best's speed",
                      entry.winner_name.c_str(), tune::recorded_mean_ns(winner) / 1e6, by_mean);
        std::cout << line;
        if (std::abs(by_median - by_mean) > 0.005) {
            std::snprintf(line, sizeof line,
                          " (%.4f by the recorded medians, which the race compares)", by_median);
            std::cout << line;
        }
        std::cout << '\n';
    }
    if (!options.json_out.empty()) {
        write_file(options.json_out, replay_report(options, recording, sampling, entry),
                   "JSON report");
    }
    return entry.ranking.empty() ? exit_failure : exit_success;
}

}  // namespace

CommandAction register_replay_command(CLI::App& parent) {
    auto options = std::make_shared<ReplayOptions>();
    auto* command = parent.add_subcommand(
        "replay",
        "Run a search strategy over a recorded search space (a Kernel Tuner cache file, a T4 "
        "results file or a tune --json report) instead of a device");
    command
        ->add_option("recording", options->recording,
                     "The recording to replay (JSON, or JSON gzip-compressed: .json.gz)")
        ->required();
    command
        ->add_option("--key", options->key_filters,
                     "From a tune report, the key with these parameter values, e.g. n=4096 "
                     "(repeatable; exactly one key may match; default: the first)")
        ->allow_extra_args(false);
    command->add_option("--family", options->family,
                        "From a tune report, the family whose grid is the space (default: the "
                        "first with grid parameters)");
    add_search_options(*command, options->overrides);
    command
        ->add_option("--noise", options->noise_cv,
                     "Read each point as its recorded mean times log-normal noise of this "
                     "coefficient of variation, e.g. 0.1 (default: one of its recorded times)")
        ->check(number_from(0, false));
    command
        ->add_option("--json", options->json_out,
                     "Write the results as JSON, as tune --json does (- for stdout)")
        ->check(file_path());
    command
        ->add_option("--kt-cache", options->kt_cache_out,
                     "Write the recording as a Kernel Tuner cache file (- for stdout)")
        ->check(file_path());
    command
        ->add_option("--t4", options->t4_out,
                     "Write the recording as a T4 results file, the autotuning community's "
                     "exchange format (- for stdout)")
        ->check(file_path());
    return [options] { return run_replay(*options); };
}

}  // namespace spvtune::app
