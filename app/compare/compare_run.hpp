#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <spvtune/run/problem_comparison.hpp>
#include <spvtune/tune/comparison.hpp>

namespace spvtune::app {

/// One baseline measured against its contenders over the selected keys of one problem.
struct ComparisonGroup {
    std::string problem;           ///< the problem's name: a JUnit suite, a Markdown section
    std::string baseline_source;   ///< where the baseline came from: a file, a kernel directory
    std::string contender_source;  ///< where the contenders came from (same as the baseline's)
    std::vector<run::KeyComparison> keys;
};

/// Everything one `spvtune compare` found, for every report.
struct CompareRun {
    std::string mode;         ///< "candidates", "files" or "results"
    std::string device;       ///< the device measured on; the results' for saved results
    nlohmann::json hardware;  ///< the hardware identity record (null when unknown)
    tune::ComparisonSettings settings;
    /// --fail-if-slower, a fraction; none: no gate.
    std::optional<double> fail_if_slower;
    std::vector<ComparisonGroup> groups;
    std::vector<std::string> added;    ///< candidates only the new side has
    std::vector<std::string> removed;  ///< candidates only the base side has
    std::vector<std::string> warnings;
};

/// The verdict of the contender at `arm` of `key`, if it was measured.
const tune::ContenderComparison* find_verdict(const run::KeyComparison& key, std::size_t arm);

/// Why the contender at `arm` fails the gate: slower than the baseline beyond --fail-if-slower
/// with confidence (without a gate: a `slower` verdict), or an output that does not match.
std::optional<std::string> regression(const CompareRun& run, const run::KeyComparison& key,
                                      std::size_t arm);

/// What the run found, counted over every key and contender.
struct CompareSummary {
    std::size_t faster = 0;
    std::size_t slower = 0;
    std::size_t equivalent = 0;
    std::size_t inconclusive = 0;
    std::size_t wrong_output = 0;
    std::size_t skipped = 0;
    std::size_t failed = 0;  ///< keys that could not be compared and contenders that failed
    std::size_t regressions = 0;
};

CompareSummary summarize(const CompareRun& run);

/// 1 when something failed to run, or when the gate is on and something regressed; else 0.
int compare_exit_code(const CompareRun& run, const CompareSummary& summary);

/// "0.512x [0.498, 0.526]": the ratio (contender / baseline) and its interval.
std::string ratio_text(const tune::RatioInterval& interval);

/// What the contender at `arm` came to: its verdict ("faster"), or why it has none ("wrong
/// output", "skipped", "failed"); for a key that could not be compared, "not compared".
std::string outcome_word(const run::KeyComparison& key, std::size_t arm);

/// What the run's ratios and intervals are, after "ratios are": the medians of per-round ratios
/// for arms measured side by side, the ratio of medians for saved results ("results" mode),
/// each with its bootstrap's resamples and seed.
std::string interval_method(const CompareRun& run);

}  // namespace spvtune::app
