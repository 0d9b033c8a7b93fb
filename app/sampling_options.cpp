#include "sampling_options.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>

#include <spvtune/tune/sampling.hpp>
#include <spvtune/tune/search.hpp>
#include <spvtune/vulkan/batched_timer.hpp>

namespace spvtune::app {
namespace {

/// "(default: the file's <field>, else <value>)": a file's settings come before the tool's.
std::string default_text(const std::string& field, const std::string& value) {
    return " (default: the file's " + field + ", else " + value + ")";
}

std::string number_text(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

/// Where a sample count came from, as the user wrote it.
std::string source(const std::optional<std::uint32_t>& override_value, const char* option,
                   std::uint32_t value, const char* field) {
    return (override_value ? std::string(option) : "the file's " + std::string(field)) + " " +
           std::to_string(value);
}

// CLI11's own range checks print the limits of a double (309 digits) and let "nan" through
// every comparison; these say what is expected, in the words the file's settings use.
CLI::Validator integer_in(std::int64_t min, std::int64_t max) {
    const std::string expected =
        "expected an integer in " + std::to_string(min) + ".." + std::to_string(max);
    return {[=](std::string& text) -> std::string {
                std::int64_t value = 0;
                const auto [end, error] =
                    std::from_chars(text.data(), text.data() + text.size(), value);
                const bool whole = error == std::errc() && end == text.data() + text.size();
                return whole && value >= min && value <= max ? "" : expected + ", found " + text;
            },
            min > 0 ? "POSITIVE" : "NONNEGATIVE"};
}

/// The finite number `text` spells out whole, if it is one.
std::optional<double> finite_number(const std::string& text) {
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(value)) {
        return std::nullopt;
    }
    return value;
}

}  // namespace

CLI::Validator number_from(double min, bool or_equal) {
    const std::string expected =
        std::string("expected a number ") + (or_equal ? ">= " : "> ") + number_text(min);
    return {[=](std::string& text) -> std::string {
                const std::optional<double> value = finite_number(text);
                const bool in_range = value && (or_equal ? *value >= min : *value > min);
                return in_range ? "" : expected + ", found " + text;
            },
            or_equal ? "NONNEGATIVE" : "POSITIVE"};
}

namespace {

/// A finite number in [0, 100).
CLI::Validator percentage_below_100() {
    return {[](std::string& text) -> std::string {
                const std::optional<double> value = finite_number(text);
                return value && *value >= 0 && *value < 100
                           ? ""
                           : "expected a percentage from 0 to below 100, found " + text;
            },
            "PCT"};
}

/// One of the search strategies, by its problem-file spelling.
CLI::Validator strategy_name() {
    return {[](std::string& text) -> std::string {
                for (const char* name :
                     {"exhaustive", "random", "halving", "local", "genetic", "bayes"}) {
                    if (text == name) {
                        return "";
                    }
                }
                return "expected exhaustive, random, halving, local, genetic or bayes, found " +
                       text;
            },
            "STRATEGY"};
}

}  // namespace

void add_search_options(CLI::App& command, problem::Settings& overrides) {
    command
        .add_option_function<std::string>(
            "--search",
            [&overrides](const std::string& name) {
                overrides.search = nlohmann::json(name).get<tune::SearchStrategy>();
            },
            "How each key's candidates are searched: exhaustive, random, halving, local, genetic "
            "or bayes" +
                default_text(
                    "search",
                    "bayes above " + std::to_string(tune::local_search_threshold) +
                        " runnable candidates or when max_candidates is fewer, else exhaustive"))
        ->check(strategy_name());
    command
        .add_option("--budget", overrides.search_budget_s,
                    "Seconds per key in which the search may propose new points; then the best "
                    "found are raced" +
                        default_text("search_budget_s", "no limit"))
        ->check(number_from(0, false));
    command
        .add_option("--max-candidates", overrides.max_candidates,
                    "Most candidates measured per key" + default_text("max_candidates", "no limit"))
        ->check(integer_in(1, problem::max_sample_count));
    command
        .add_option("--seed", overrides.seed,
                    "Seed of the search's random choices: the same seed and timings measure the "
                    "same points" +
                        default_text("seed", "0"))
        ->check(integer_in(0, std::numeric_limits<std::int64_t>::max()));
    command
        .add_option(
            "--patience", overrides.patience,
            "local and bayes: fruitless restarts in a row before the search ends "
            "(genetic: generations)" +
                default_text("patience", std::to_string(tune::local_patience) + " (genetic: " +
                                             std::to_string(tune::genetic_patience) + ")"))
        ->check(integer_in(1, static_cast<std::int64_t>(tune::max_patience)));
}

void add_measurement_options(CLI::App& command, problem::Settings& overrides) {
    // The tool's defaults, read from the libraries so that the help cannot drift from them.
    const tune::SamplingSettings sampling;
    const vulkan::BatchPolicy batch;
    const double window_ms = static_cast<double>(batch.min_window.count()) / 1e6;

    command
        .add_option("--warmup", overrides.warmup,
                    "Warm-up runs per candidate" +
                        default_text("warmup", std::to_string(sampling.warmup_runs)))
        ->check(integer_in(0, problem::max_sample_count));
    command
        .add_option("--samples", overrides.samples,
                    "Samples per candidate (adaptive: the maximum)" +
                        default_text("samples", std::to_string(sampling.max_samples)))
        ->check(integer_in(1, problem::max_sample_count));
    command
        .add_option("--min-samples", overrides.min_samples,
                    "Adaptive: samples before any candidate may be eliminated or sampling end, "
                    "at most --samples" +
                        default_text("min_samples", std::to_string(sampling.min_samples)))
        ->check(integer_in(1, problem::max_sample_count));
    command
        .add_option("--min-sample-ms", overrides.min_sample_ms,
                    "Repeat dispatches in one sample until it spans this many ms; 0: one "
                    "dispatch per sample" +
                        default_text("min_sample_ms", number_text(window_ms)))
        ->check(number_from(0, true));
    command
        .add_option(
            "--time-budget", overrides.time_budget_s,
            "Seconds of sampling per key at most" + default_text("time_budget_s", "no limit"))
        ->check(number_from(0, false));
    command
        .add_option(
            "--kernel-timeout", overrides.kernel_timeout_s,
            "Seconds one kernel may run in the worker before its candidate fails as "
            "timed out and the worker is killed" +
                default_text("kernel_timeout_s", "max(2, 50x the key's best), 25 before any"))
        ->check(number_from(0, false));
}

void add_sampling_options(CLI::App& command, problem::Settings& overrides, bool& fixed) {
    const tune::SamplingSettings sampling;
    command.add_flag("--fixed", fixed,
                     "Fixed sampling: every candidate gets --warmup warm-ups and --samples "
                     "samples, no early elimination" +
                         default_text("mode", "adaptive"));
    add_measurement_options(command, overrides);
    command
        .add_option("--samples-per-submission", overrides.samples_per_submission,
                    "Samples a candidate takes in each round of the race, in one submission "
                    "(each between its own timestamps); decisions pair whole rounds" +
                        default_text("samples_per_submission",
                                     std::to_string(sampling.samples_per_submission)))
        ->check(integer_in(1, static_cast<std::int64_t>(tune::max_samples_per_submission)));
    command
        .add_option(
            "--candidate-budget", overrides.candidate_budget_s,
            "Seconds of measured kernel time per candidate at most; it keeps the samples "
            "it has" +
                default_text(
                    "candidate_budget_s",
                    number_text(static_cast<double>(sampling.candidate_budget->count()) / 1000)))
        ->check(number_from(0, false));
    command
        .add_option(
            "--indifference", overrides.indifference_percent,
            "Adaptive: leaders confidently closer than this percent are practically "
            "equivalent; sampling stops and reports them tied (0: never)" +
                default_text("indifference_percent", number_text(sampling.indifference * 100)))
        ->check(percentage_below_100());
}

std::optional<std::string> sample_count_conflict(const problem::Settings& file_settings,
                                                 const problem::Settings& overrides) {
    const auto min_samples =
        overrides.min_samples ? overrides.min_samples : file_settings.min_samples;
    const auto samples = overrides.samples ? overrides.samples : file_settings.samples;
    if (!min_samples || !samples || *min_samples <= *samples) {
        return std::nullopt;
    }
    return "expected min_samples <= samples, found " +
           source(overrides.min_samples, "--min-samples", *min_samples, "min_samples") + " > " +
           source(overrides.samples, "--samples", *samples, "samples");
}

}  // namespace spvtune::app
