#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "activity.hpp"
#include "command.hpp"
#include "path_options.hpp"
#include "report/html_report.hpp"

namespace spvtune::app {
namespace {

struct ReportOptions {
    std::vector<std::string> files;
    std::string output;
};

int run_report(const ReportOptions& options) {
    std::string page;
    try {
        std::vector<ReportInput> inputs;
        for (const std::string& file : options.files) {
            inputs.push_back(
                while_doing("reading the report " + file, [&] { return read_report_input(file); }));
            report_kind(inputs.back());  // every file is checked before any is drawn
        }
        // Rendering reads every member it shows: a malformed file is bad input too.
        page = while_doing("drawing the HTML page", [&] { return html_report(inputs); });
    } catch (const std::runtime_error& error) {
        std::cerr << "spvtune: error: " << error.what() << '\n';
        return exit_usage;
    }
    write_html_report(options.output, page);  // a write error is the run's failure (exit 1)
    return exit_success;
}

}  // namespace

CommandAction register_report_command(CLI::App& parent) {
    auto options = std::make_shared<ReportOptions>();
    auto* command = parent.add_subcommand(
        "report",
        "Write one self-contained HTML page with charts from tune, compare and cache diff JSON "
        "reports");
    command
        ->add_option("results", options->files,
                     "JSON reports written by tune --json, compare --json or cache diff --json")
        ->required()
        ->check(existing(PathKind::file));
    command->add_option("-o,--output", options->output, "The HTML file to write (- for stdout)")
        ->required()
        ->check(file_path());
    return [options] { return run_report(*options); };
}

}  // namespace spvtune::app
