#include "fan_out_reporter.hpp"

#include <utility>

namespace spvtune::app {

void FanOutReporter::add(std::unique_ptr<TuneReporter> reporter) {
    reporters_.push_back(std::move(reporter));
}

void FanOutReporter::run_started(const RunInfo& run) {
    each(&TuneReporter::run_started, run);
}

void FanOutReporter::problem_started(const ProblemRun& problem) {
    each(&TuneReporter::problem_started, problem);
}

void FanOutReporter::key_started(const KeyRun& key) {
    each(&TuneReporter::key_started, key);
}

void FanOutReporter::candidate_started(std::string_view candidate) {
    each(&TuneReporter::candidate_started, candidate);
}

void FanOutReporter::tune_event(const tune::TuneEvent& event) {
    each(&TuneReporter::tune_event, event);
}

void FanOutReporter::key_finished(const KeyRun& key, const run::KeyReport& report) {
    each(&TuneReporter::key_finished, key, report);
}

void FanOutReporter::problem_finished(const ProblemRun& problem) {
    each(&TuneReporter::problem_finished, problem);
}

void FanOutReporter::run_finished(const RunSummary& summary) {
    each(&TuneReporter::run_finished, summary);
}

}  // namespace spvtune::app
