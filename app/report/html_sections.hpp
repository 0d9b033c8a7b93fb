#pragma once

// The parts of html_report(): one section per input, each a <section> of HTML.

#include <string>
#include <string_view>

#include "json_view.hpp"

namespace spvtune::app {

/// `tune --json`: the run's summary table, then per key its candidate chart, the heatmaps of
/// its two-parameter grids and its failures.
std::string tune_section(const JsonView& report);

/// `compare --json`: the verdict counts and warnings, then per problem the ratio chart.
std::string compare_section(const JsonView& report);

/// `cache diff --json`: per hardware, the table of changed entries with their speedups.
std::string cache_diff_section(const JsonView& report);

/// HTML-escaped text.
std::string html_text(std::string_view text);

/// HTML-escaped text with each command-line option in it (`--min-sample-ms`) in a
/// <code class="option">, which the page never breaks across lines: a browser breaks lines
/// after a hyphen, which cut option names in two in warnings and reasons.
std::string html_prose(std::string_view text);

}  // namespace spvtune::app
