#pragma once

#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

#include <spvtune/problem/problem.hpp>
#include <spvtune/run/problem_tuning.hpp>
#include <spvtune/tune/events.hpp>
#include <spvtune/tune/hardware_identity.hpp>

namespace spvtune::app {

/// What a tune run works on, known before its first key.
struct RunInfo {
    std::string device_name;
    tune::HardwareIdentity hardware;
    std::filesystem::path cache_file;
    std::span<const problem::Problem> problems;
    /// The keys selected by `--key`, over every problem.
    std::size_t total_keys = 0;
    /// Candidates that timed out, crashed or lost the device in a worker (each key's report
    /// names them); any fails the run.
    std::size_t faulted_candidates = 0;
};

/// A problem being tuned, with the settings in force after the command-line overrides.
struct ProblemRun {
    const problem::Problem& problem;
    const run::TuningOptions& tuning;
};

/// A key being tuned; `index` counts from 0 up to RunInfo::total_keys over the whole run.
struct KeyRun {
    const ProblemRun& problem;
    const problem::KeyEntry& entry;
    std::size_t index = 0;
};

struct RunSummary {
    std::size_t done = 0;
    std::size_t failed = 0;
    std::size_t total_keys = 0;
    /// Candidates that timed out, crashed or lost the device in a worker (each key's report
    /// names them); any fails the run.
    std::size_t faulted_candidates = 0;
    /// Ctrl-C stopped the run; the keys after it were not tuned.
    bool interrupted = false;
};

/// Receives a tune run as it happens, so each output format (terminal, JSON file, ...) is one
/// implementation and the key loop knows none of them. Hooks come in this order: run_started;
/// per problem problem_started, then per key key_started, any candidate_started and
/// tune_event, key_finished; problem_finished; finally run_finished. Every hook does nothing
/// unless overridden. A hook that throws ends the run with that error.
class TuneReporter {
  public:
    virtual ~TuneReporter() = default;

    virtual void run_started(const RunInfo& /*run*/) {}
    virtual void problem_started(const ProblemRun& /*problem*/) {}
    virtual void key_started(const KeyRun& /*key*/) {}
    /// A candidate of the current key is about to run or be measured.
    virtual void candidate_started(std::string_view /*candidate*/) {}
    /// What the tuner reported (e.g. a note from the cache store).
    virtual void tune_event(const tune::TuneEvent& /*event*/) {}
    virtual void key_finished(const KeyRun& /*key*/, const run::KeyReport& /*report*/) {}
    virtual void problem_finished(const ProblemRun& /*problem*/) {}
    virtual void run_finished(const RunSummary& /*summary*/) {}
};

}  // namespace spvtune::app
