#pragma once

#include <memory>
#include <vector>

#include "reporter.hpp"

namespace spvtune::app {

/// Passes every hook to each reporter in the order they were added.
class FanOutReporter final : public TuneReporter {
  public:
    void add(std::unique_ptr<TuneReporter> reporter);

    void run_started(const RunInfo& run) override;
    void problem_started(const ProblemRun& problem) override;
    void key_started(const KeyRun& key) override;
    void candidate_started(std::string_view candidate) override;
    void tune_event(const tune::TuneEvent& event) override;
    void key_finished(const KeyRun& key, const run::KeyReport& report) override;
    void problem_finished(const ProblemRun& problem) override;
    void run_finished(const RunSummary& summary) override;

  private:
    template <typename Hook, typename... Args>
    void each(Hook hook, const Args&... args) {
        for (const auto& reporter : reporters_) {
            ((*reporter).*hook)(args...);
        }
    }

    std::vector<std::unique_ptr<TuneReporter>> reporters_;
};

}  // namespace spvtune::app
