#pragma once

#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "../terminal_color.hpp"
#include "compare_run.hpp"

namespace spvtune::app {

/// The `--json` report: every key's arms with their samples and verdicts, versioned by
/// `schema_version` (docs/json-report.md).
nlohmann::json compare_json(const CompareRun& run);

/// The `--markdown` report: a table per problem, for a pull-request comment or a CI step summary.
std::string compare_markdown(const CompareRun& run);

/// The `--junit` report: a test suite per problem, a test case per key and contender, a failure
/// element for a regression or a wrong output, an error element for what failed to run.
std::string compare_junit(const CompareRun& run);

/// The terminal report, verdicts painted with `palette`; not a stable interface (use --json in
/// scripts).
void print_compare_report(std::ostream& out, const CompareRun& run, const CompareSummary& summary,
                          const Palette& palette);

}  // namespace spvtune::app
