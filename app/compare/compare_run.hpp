#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
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

/// What an arm still `inconclusive` at the end of sampling does to the gate (--inconclusive).
enum class InconclusivePolicy {
    pass,  ///< nothing: it passes silently
    warn,  ///< it passes, and one warning names every such arm
    fail,  ///< it fails the gate, as a confident slowdown would
};

/// "pass", "warn" or "fail".
std::string_view inconclusive_policy_name(InconclusivePolicy policy) noexcept;

/// The seconds of sampling a whole compare run may take by default (--budget).
inline constexpr double default_budget_s = 60;

/// Everything one `spvtune compare` found, for every report.
struct CompareRun {
    std::string mode;         ///< "candidates", "files" or "results"
    std::string device;       ///< the device measured on; the results' for saved results
    nlohmann::json hardware;  ///< the hardware identity record (null when unknown)
    tune::ComparisonSettings settings;
    /// --fail-if-slower, a fraction; none: no gate.
    std::optional<double> fail_if_slower;
    InconclusivePolicy inconclusive = InconclusivePolicy::warn;
    /// --budget: the seconds of sampling the whole run may take (none for saved results).
    std::optional<double> budget_s;
    /// How the verdicts of all the run's arms were judged together (judge_family).
    tune::FamilyJudgement family;
    std::vector<ComparisonGroup> groups;
    std::vector<std::string> added;    ///< candidates only the new side has
    std::vector<std::string> removed;  ///< candidates only the base side has
    std::vector<std::string> warnings;
};

/// The verdict of the contender at `arm` of `key`, if it was measured.
const tune::ContenderComparison* find_verdict(const run::KeyComparison& key, std::size_t arm);

/// Why the contender at `arm` fails the gate: slower than the baseline beyond --fail-if-slower
/// with confidence (without a gate: a `slower` verdict), an output that does not match, or, with
/// --inconclusive fail, a verdict still inconclusive at the end.
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

/// 1 when something failed to run, or when the gate is on (--fail-if-slower, or --inconclusive
/// fail) and something regressed; else 0.
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

/// How the run's verdicts hold together, after "verdicts are": Holm's step-down over every key
/// and contender (the family's size), at the family-wise confidence split over the looks.
std::string family_method(const CompareRun& run);

/// Judges every arm of the run together (tune::judge_family), then adds the run's warnings
/// about them: one naming the arms left undecided by a noisy baseline, with the baseline's
/// coefficient of variation as the table shows it, and one listing the undecided arms that
/// --inconclusive warn lets pass.
void judge_run(CompareRun& run);

}  // namespace spvtune::app
