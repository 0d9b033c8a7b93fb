#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace spvtune::app {

/// A report file `spvtune report` reads: what `tune --json`, `compare --json` or
/// `cache diff --json` wrote.
struct ReportInput {
    std::string file;  ///< for messages and headings
    nlohmann::json json;
};

enum class ReportKind { tune, compare, cache_diff };

/// Which report `input` is: `compare` and `cache diff` name themselves in `command`; a tune
/// report has none, and is known by its `problems` list and `device`. Throws
/// std::runtime_error naming the file when it is none of them.
ReportKind report_kind(const ReportInput& input);

/// Reads and parses `path`; throws std::runtime_error naming it when it cannot be read or is not
/// JSON.
ReportInput read_report_input(const std::string& path);

/// One self-contained HTML page for `inputs`, in their order: inline CSS and SVG, no script,
/// nothing fetched. Throws std::runtime_error naming the file and JSON pointer of anything
/// malformed.
std::string html_report(const std::vector<ReportInput>& inputs);

/// Writes the page html_report() made to `path` (- for stdout) whole or not at all
/// (base::write_output_file); throws std::runtime_error when it cannot.
void write_html_report(const std::string& path, const std::string& page);

}  // namespace spvtune::app
