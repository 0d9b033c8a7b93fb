#include "html_report.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include <spvtune/base/output_file.hpp>

#include "html_report/chart_style.hpp"
#include "html_report/svg_writer.hpp"
#include "html_sections.hpp"
#include "input_file.hpp"

namespace spvtune::app {
namespace {

constexpr const char* expected_kinds =
    "a report written by spvtune tune --json, compare --json or cache diff --json";

/// The page's own styles; the charts' come from html::chart_css().
constexpr const char* page_css =
    R"css(body { font: 14px/1.45 system-ui, sans-serif; color: #1d2b3a; margin: 0 auto; max-width: 940px; padding: 16px 24px 48px; }
h1 { font-size: 22px; margin: 8px 0 4px; }
h2 { font-size: 18px; border-bottom: 2px solid #d5dde6; padding-bottom: 4px; margin-top: 32px; }
h3 { font-size: 15px; margin: 24px 0 6px; }
h4 { font-size: 13px; margin: 12px 0 4px; color: #444; }
table { border-collapse: collapse; margin: 8px 0; font-size: 13px; }
th, td { border-bottom: 1px solid #e3e3e3; padding: 3px 10px 3px 0; text-align: left; vertical-align: top; }
th { color: #444; font-weight: 600; }
td.number { text-align: right; font-variant-numeric: tabular-nums; }
.muted { color: #666; }
.status-failed, .regression, .verdict-slower { color: #c92a2a; font-weight: 600; }
.verdict-faster { color: #2b8a3e; font-weight: 600; }
.verdict-inconclusive { color: #e67700; font-weight: 600; }
ul.failures { margin: 4px 0; padding-left: 20px; font-size: 13px; }
ul.failures li { margin: 2px 0; overflow-wrap: anywhere; }
code { font-size: 12px; background: #f3f5f7; padding: 0 3px; hyphens: none; }
code.option { white-space: nowrap; }
.legend { font-size: 12px; color: #555; margin: 2px 0 0; }
.swatch { display: inline-block; width: 10px; height: 10px; margin: 0 4px 0 0; vertical-align: baseline; }
.legend .swatch:not(:first-child) { margin-left: 10px; }
details { font-size: 13px; margin: 4px 0 8px; }
summary { cursor: pointer; color: #444; }
)css";

}  // namespace

std::string html_text(std::string_view text) {
    return html::escape_xml(text);
}

ReportKind report_kind(const ReportInput& input) {
    const nlohmann::json& json = input.json;
    if (json.is_object()) {
        const auto command = json.find("command");
        if (command != json.end() && command->is_string()) {
            if (*command == "compare") {
                return ReportKind::compare;
            }
            if (*command == "cache diff") {
                return ReportKind::cache_diff;
            }
            if (*command == "tune") {
                return ReportKind::tune;
            }
            throw std::runtime_error(input.file + ": a report of '" + command->get<std::string>() +
                                     "', which spvtune report does not read (expected " +
                                     expected_kinds + ")");
        }
        // Reports written before tune's named its command.
        if (json.contains("problems") && json["problems"].is_array() && json.contains("device")) {
            return ReportKind::tune;
        }
    }
    throw std::runtime_error(input.file + ": not " + expected_kinds +
                             " (no \"command\" member, and not a tune report's \"device\" and "
                             "\"problems\")");
}

ReportInput read_report_input(const std::string& path) {
    ReportInput input{path, nlohmann::json::parse(read_input_file(path, "file"), nullptr, false)};
    if (input.json.is_discarded()) {
        throw std::runtime_error(path + ": not valid JSON (expected " + expected_kinds + ")");
    }
    return input;
}

std::string html_report(const std::vector<ReportInput>& inputs) {
    std::string body;
    for (const ReportInput& input : inputs) {
        const JsonView report(input.json, input.file);
        std::string heading;
        std::string section;
        switch (report_kind(input)) {
            case ReportKind::tune:
                heading = "Tuning run";
                section = tune_section(report);
                break;
            case ReportKind::compare:
                heading = "Comparison";
                section = compare_section(report);
                break;
            case ReportKind::cache_diff:
                heading = "Cache changes";
                section = cache_diff_section(report);
                break;
        }
        body += "<section>\n<h2>" + heading + " <span class=\"muted\">" + html_text(input.file) +
                "</span></h2>\n" + section + "</section>\n";
    }
    // The policy forbids every fetch and every script, so a report that opens offline (or as a
    // CI artifact) shows all there is to see.
    return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
           "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
           "style-src 'unsafe-inline'\">\n"
           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
           "<title>spvtune report</title>\n<style>\n" +
           std::string(page_css) + std::string(html::chart_css()) +
           "</style>\n</head>\n<body>\n<h1>spvtune report</h1>\n<p class=\"muted\">" +
           std::to_string(inputs.size()) + (inputs.size() == 1 ? " file" : " files") +
           ", written by spvtune " SPVTUNE_VERSION "</p>\n" + body + "</body>\n</html>\n";
}

void write_html_report(const std::string& path, const std::string& page) {
    try {
        base::write_output_file(path, page);
    } catch (const std::system_error& error) {
        throw std::runtime_error("cannot write the HTML report: " + std::string(error.what()));
    }
}

}  // namespace spvtune::app
