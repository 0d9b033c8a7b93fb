#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <spvtune/problem/key_plan.hpp>
#include <spvtune/problem/problem.hpp>
#include <spvtune/problem/problem_runner.hpp>
#include <spvtune/tune/anchor.hpp>
#include <spvtune/tune/events.hpp>
#include <spvtune/tune/sampling.hpp>
#include <spvtune/tune/tune_store.hpp>
#include <spvtune/tune/tuner_options.hpp>
#include <spvtune/vulkan/device.hpp>

namespace spvtune::problem {

struct TuningOptions {
    tune::SamplingSettings sampling;
    vulkan::BatchPolicy batch;
    /// Compile every candidate, measure and record nothing.
    bool compile_only = false;
    /// Measure keys again even when the store has them; the new result replaces the old one
    /// only once it is settled, so an interrupted re-tune loses nothing. Ignored with
    /// MissPolicy::run_preferred, which never measures and never writes the store.
    bool retune = false;
    /// What a key missing from the store does: be measured (tune), or run the most preferred
    /// candidate without measuring or recording anything (run_preferred, KeyStatus::untuned),
    /// for applications that run a shipped cache and must never pause to tune.
    tune::MissPolicy miss_policy = tune::MissPolicy::tune;
    tune::AutotuneLevel level = tune::AutotuneLevel::balanced;
    /// Where results persist; null: in memory only.
    std::shared_ptr<tune::TuneStore> store;
    /// Tuning events (key started, finished, store notes); may be empty.
    tune::Reporter reporter;
    /// Told each candidate about to run or be measured; may be empty.
    std::function<void(std::string_view candidate)> on_candidate;
};

/// The measurement settings in force: the tool's defaults, then the problem file's settings,
/// then `overrides` (command-line options), each field overriding the one before.
tune::SamplingSettings sampling_settings(const Settings& file, const Settings& overrides);
vulkan::BatchPolicy batch_policy(const Settings& file, const Settings& overrides);

enum class KeyStatus {
    tuned,     ///< measured now
    cached,    ///< the store (or this run) had it settled: nothing measured
    compiled,  ///< compile-only mode
    untuned,   ///< not in the store, MissPolicy::run_preferred: the preferred candidate ran
    failed,    ///< no candidate could run, or none produced a correct output
};

// Spellings of the tune command's JSON output.
NLOHMANN_JSON_SERIALIZE_ENUM(KeyStatus, {
                                            {KeyStatus::tuned, "tuned"},
                                            {KeyStatus::cached, "cached"},
                                            {KeyStatus::compiled, "compiled"},
                                            {KeyStatus::untuned, "untuned"},
                                            {KeyStatus::failed, "failed"},
                                        })

/// What happened to one key.
struct KeyReport {
    ProblemKey key;         ///< exact
    ProblemKey tuning_key;  ///< bucketed
    KeyStatus status = KeyStatus::failed;
    /// Why the key failed (status failed), one or more lines.
    std::string error;
    /// The settled entry (ranking with statistics, failures), when there is one.
    std::optional<tune::TuneEntry> entry;
    /// Candidates the key's plan could not run, with reasons.
    std::vector<SkippedCandidate> skipped;
    /// The candidate that produced the returned output (tuned, cached, compiled, untuned).
    std::optional<std::size_t> ran;
    /// Every sample measured for this key, per candidate, warm-ups first.
    std::vector<std::vector<tune::Sample>> samples;
    double elapsed_s = 0;
};

/// Tunes the keys of one problem on one device through a LocalTuner: the job of `spvtune tune`.
class ProblemTuning {
  public:
    ProblemTuning(const Problem& problem, vulkan::Device& device, TuningOptions options);
    ~ProblemTuning();
    ProblemTuning(const ProblemTuning&) = delete;
    ProblemTuning& operator=(const ProblemTuning&) = delete;

    /// Plans, then executes `exact_key`: a settled key runs its winner, others are measured
    /// (or, under MissPolicy::run_preferred, run untuned).
    KeyReport tune(const ProblemKey& exact_key);

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace spvtune::problem
