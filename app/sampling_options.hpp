#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include <spvtune/problem/problem.hpp>

namespace spvtune::app {

/// A validator of a finite number above `min` (or at least `min` when `or_equal`), whose message
/// says what was expected in the words the file's settings use.
CLI::Validator number_from(double min, bool or_equal);

/// Adds the options of how candidates are measured, which `tune` and `compare` share:
/// --warmup, --samples, --min-samples, --min-sample-ms, --time-budget, --kernel-timeout.
void add_measurement_options(CLI::App& command, problem::Settings& overrides);

/// Adds tune's sampling options (--fixed, --warmup, --samples, --min-samples, --min-sample-ms,
/// --time-budget, --candidate-budget, --kernel-timeout), which override a problem file's
/// `settings`. Their help shows the defaults the tuner uses when neither the file nor the option
/// sets a value.
void add_sampling_options(CLI::App& command, problem::Settings& overrides, bool& fixed);

/// Adds tune's search options (--search, --budget, --max-candidates, --seed), which override a
/// problem file's `search`, `search_budget_s`, `max_candidates`, `seed` and `patience` settings.
void add_search_options(CLI::App& command, problem::Settings& overrides);

/// The rule a problem file's `settings` follow, applied to the file under the command line:
/// a min_samples above samples is an error when both are given, wherever each comes from (a
/// default samples only lowers min_samples). The message says where each value came from.
/// Empty `file_settings` check the command line alone.
std::optional<std::string> sample_count_conflict(const problem::Settings& file_settings,
                                                 const problem::Settings& overrides);

}  // namespace spvtune::app
