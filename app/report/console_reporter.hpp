#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <ostream>

#include "../terminal_color.hpp"
#include "progress.hpp"
#include "reporter.hpp"

namespace spvtune::app {

/// The terminal: the device and cache file, a progress line on stderr, each key's ranking table
/// on stdout as it finishes, and the summary. Quiet prints only failed keys (on stderr) and the
/// interruption notice; verbose adds the tables of cached keys. `out` is stdout unless stdout
/// carries something else (`--json -`): then the tables go to stderr. Statuses are coloured per
/// stream as `color` decides (terminal_color.hpp).
class ConsoleReporter final : public TuneReporter {
  public:
    ConsoleReporter(bool quiet, bool verbose, std::ostream& out, ColorMode color);

    void run_started(const RunInfo& run) override;
    /// Lists the points of the problem that were left out (no SPIR-V file, no compile).
    void problem_started(const ProblemRun& problem) override;
    void key_started(const KeyRun& key) override;
    void candidate_started(std::string_view candidate) override;
    void tune_event(const tune::TuneEvent& event) override;
    void key_finished(const KeyRun& key, const run::KeyReport& report) override;
    void run_finished(const RunSummary& summary) override;

  private:
    std::ostream& out_;
    bool quiet_;
    bool verbose_;
    ColorMode color_;
    std::filesystem::path cache_file_;
    /// The cache file's modification time when the run started (none: no file), so the summary
    /// can tell whether the keys tuned now were written (a newer-schema file, an unwritable
    /// directory: the store only notes it).
    std::optional<std::filesystem::file_time_type> cache_file_time_;
    std::size_t tuned_keys_ = 0;
    std::optional<Progress> progress_;
};

}  // namespace spvtune::app
