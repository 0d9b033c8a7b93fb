#include "json_reporter.hpp"

#include <stdexcept>
#include <system_error>
#include <utility>

#include <spvtune/base/output_file.hpp>

#include "key_json.hpp"

namespace spvtune::app {
namespace {

/// A report is written whole or not at all (see base::write_output_file).
void write_json(const std::string& path, const nlohmann::json& json) {
    try {
        base::write_output_file(path, json.dump(2) + "\n");
    } catch (const std::system_error& error) {
        throw std::runtime_error("cannot write the JSON report: " + std::string(error.what()));
    }
}

}  // namespace

JsonReporter::Sink json_file_sink(std::string path) {
    return [path = std::move(path)](const nlohmann::json& report) { write_json(path, report); };
}

JsonReporter::JsonReporter(Sink finished) : finished_(std::move(finished)) {}

void JsonReporter::run_started(const RunInfo& run) {
    // schema_version: raised when a change could mislead an existing reader
    // (configs/schemas/tune-report.schema.json, docs/json-report.md).
    report_ = {{"schema_version", 1},
               {"command", "tune"},
               {"spvtune_version", SPVTUNE_VERSION},
               {"device", run.hardware.record},
               {"cache_file", run.cache_file.string()},
               {"problems", nlohmann::json::array()}};
}

void JsonReporter::problem_started(const ProblemRun& problem) {
    const run::TuningOptions& tuning = problem.tuning;
    nlohmann::json left_out = nlohmann::json::array();
    for (const problem::UnavailableCandidate& candidate : problem.problem.unavailable) {
        left_out.push_back({{"name", candidate.name}, {"reason", candidate.reason}});
    }
    problem_ = {{"name", problem.problem.name},
                {"file", problem.problem.file.string()},
                {"left_out", std::move(left_out)},
                {"settings", tuning.tuner.sampling},
                {"min_sample_ms", tuning.batch.min_window.count() / 1e6},
                {"families", families_json(problem.problem)},
                {"keys", nlohmann::json::array()}};
}

void JsonReporter::key_finished(const KeyRun& key, const run::KeyReport& report) {
    problem_["keys"].push_back(key_report_json(key.problem.problem, report,
                                               key.problem.tuning.tuner.sampling.warmup_runs));
}

void JsonReporter::problem_finished(const ProblemRun& /*problem*/) {
    report_["problems"].push_back(std::move(problem_));
}

void JsonReporter::run_finished(const RunSummary& summary) {
    report_["interrupted"] = summary.interrupted;
    report_["faulted_candidates"] = summary.faulted_candidates;
    finished_(report_);
}

}  // namespace spvtune::app
