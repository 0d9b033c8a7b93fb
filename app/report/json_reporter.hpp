#pragma once

#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "reporter.hpp"

namespace spvtune::app {

/// Collects the `--json` record of a run: the device, the cache file, each problem's settings
/// and candidate families, and every key's full record (all samples included), and hands it
/// whole to its sink when the run finishes, also after an interruption.
class JsonReporter final : public TuneReporter {
  public:
    using Sink = std::function<void(const nlohmann::json& report)>;

    explicit JsonReporter(Sink finished);

    void run_started(const RunInfo& run) override;
    void problem_started(const ProblemRun& problem) override;
    void key_finished(const KeyRun& key, const run::KeyReport& report) override;
    void problem_finished(const ProblemRun& problem) override;
    void run_finished(const RunSummary& summary) override;

  private:
    Sink finished_;
    nlohmann::json report_;
    nlohmann::json problem_;
};

/// `--json PATH`: writes the report to PATH (- for stdout), whole or not at all.
JsonReporter::Sink json_file_sink(std::string path);

}  // namespace spvtune::app
