#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "reporter.hpp"

namespace spvtune::app {

/// `--json OUT`: the device, the cache file, each problem's settings and every key's full
/// record (all samples included), written when the run finishes, also after an interruption.
class JsonReporter final : public TuneReporter {
  public:
    explicit JsonReporter(std::string path);

    void run_started(const RunInfo& run) override;
    void problem_started(const ProblemRun& problem) override;
    void key_finished(const KeyRun& key, const problem::KeyReport& report) override;
    void problem_finished(const ProblemRun& problem) override;
    void run_finished(const RunSummary& summary) override;

  private:
    std::string path_;
    nlohmann::json report_;
    nlohmann::json problem_;
};

}  // namespace spvtune::app
