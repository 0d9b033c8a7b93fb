#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <spvtune/problem/problem.hpp>
#include <spvtune/run/candidate_executor.hpp>
#include <spvtune/run/key_plan.hpp>
#include <spvtune/run/problem_runner.hpp>
#include <spvtune/tune/anchor.hpp>
#include <spvtune/tune/sampling.hpp>
#include <spvtune/tune/search.hpp>
#include <spvtune/tune/tune_entry.hpp>
#include <spvtune/tune/tuner_options.hpp>
#include <spvtune/vulkan/batched_timer.hpp>
#include <spvtune/vulkan/device.hpp>

namespace spvtune::run {

struct TuningOptions {
    /// The tuner's options as they are: sampling, what a miss does (measure; run the preferred
    /// candidate untuned for a shipped cache, KeyStatus::untuned; compile only), re-tuning, the
    /// store (null: in memory only) and the reporter of tuning events (candidate_started drives
    /// progress displays). Output checks are always on, whatever `checks` says: a candidate
    /// with a wrong output must never win.
    tune::TunerOptions tuner;
    /// How many dispatches one sample holds.
    vulkan::BatchPolicy batch;
    /// How coarsely bucketed key parameters share cache entries.
    tune::AutotuneLevel level = tune::AutotuneLevel::balanced;
    /// Where every output a candidate produces is written (`--dump-outputs`); null: nowhere.
    OutputDump* dump = nullptr;
    /// In process: the file that keeps the device's pipeline cache between runs
    /// (cache::pipeline_cache_file_name in the cache directory); empty: no pipeline cache. A
    /// worker process is told its own.
    std::filesystem::path pipeline_cache;
    /// In process: threads that build pipelines ahead (none: default_build_threads of the device).
    std::optional<std::size_t> build_threads;
    /// Hears notes that are no error (a pipeline cache file ignored); null: nobody.
    std::function<void(const std::string&)> note;
};

/// The measurement settings in force: the tool's defaults, then the problem file's settings,
/// then `overrides` (command-line options), each field overriding the one before.
tune::SamplingSettings sampling_settings(const problem::Settings& file,
                                         const problem::Settings& overrides);
vulkan::BatchPolicy batch_policy(const problem::Settings& file, const problem::Settings& overrides);
/// The search settings in force, the same way: defaults, the file, then `overrides`.
tune::SearchSettings search_settings(const problem::Settings& file,
                                     const problem::Settings& overrides);

enum class KeyStatus {
    tuned,     ///< measured now
    cached,    ///< the store (or this run) had it settled: nothing measured
    compiled,  ///< compile-only mode
    untuned,   ///< not in the store, MissPolicy::run_preferred or run_nearest: nothing measured
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
    problem::ProblemKey key;         ///< exact
    problem::ProblemKey tuning_key;  ///< bucketed
    KeyStatus status = KeyStatus::failed;
    /// Why the key failed (status failed), one or more lines.
    std::string error;
    /// The settled entry (ranking with statistics, failures), when there is one; for an answer
    /// from the nearest tuned key, that key's entry.
    std::optional<tune::TuneEntry> entry;
    /// MissPolicy::run_nearest: the tuned key whose winner ran, as it prints ("n=4096"); the
    /// status is `untuned`, since this key itself was not tuned.
    std::optional<std::string> nearest_key;
    /// Candidates the key's plan could not run, with reasons.
    std::vector<SkippedCandidate> skipped;
    /// The candidate whose output was this key's truth (index into Problem::candidates): the
    /// first of the reference candidates that can run it; none when none can.
    std::optional<std::size_t> reference;
    /// The candidate that produced the returned output (tuned, cached, compiled, untuned).
    std::optional<std::size_t> ran;
    /// Every sample measured for this key, per candidate, warm-ups first.
    std::vector<std::vector<tune::Sample>> samples;
    /// The reading of every output run for this key, per candidate (ProblemRunner::run_readings).
    std::vector<std::vector<tune::Sample>> run_readings;
    /// Wall time of the key's measuring calls and output runs; the rest of elapsed_s is
    /// planning, the tuner's bookkeeping and the cache file.
    ExecutorTime executor_time;
    /// Candidates that hung, crashed or lost the device while this key was tuned (a worker
    /// executor survives them); each also has its failure in `entry`.
    std::vector<CandidateFault> faults;
    double elapsed_s = 0;
};

/// Where a key's answer came from, for an application to log or show: "exact" (its own entry,
/// or tuned now), "nearest (from n=4096)" (MissPolicy::run_nearest: the winner of the nearest
/// tuned key), "default" (the most preferred candidate that can run it), "compiled" or "failed".
std::string answer_source(const KeyReport& report);

/// The status reports show for a candidate that failed for `report`'s key: the fault's name
/// ("timed out") when the failure was one, else the failure kind's ("error", "wrong output").
std::string failure_status(const KeyReport& report, const tune::CandidateFailure& failure);

/// Tunes the keys of one problem on one device through a LocalTuner: the job of `spvtune tune`.
/// A Session (session.hpp) makes one with the run's settings; applications that hold their own
/// device and store may make one directly.
class ProblemTuning {
  public:
    /// Runs the candidates in this process, on `device`.
    ProblemTuning(const problem::Problem& problem, vulkan::Device& device, TuningOptions options);
    /// Runs the candidates through `executor` (a WorkerExecutor, say) for the physical device
    /// `device` describes, whose limits plan the keys; the executor must outlive the tuning.
    ProblemTuning(const problem::Problem& problem, const vulkan::PhysicalDeviceInfo& device,
                  CandidateExecutor& executor, TuningOptions options);
    /// The same with an executor the tuning owns.
    ProblemTuning(const problem::Problem& problem, const vulkan::PhysicalDeviceInfo& device,
                  std::unique_ptr<CandidateExecutor> executor, TuningOptions options);
    ~ProblemTuning();
    ProblemTuning(ProblemTuning&&) noexcept;
    ProblemTuning& operator=(ProblemTuning&&) noexcept;

    /// The options it tunes with, as given (reports show its sampling and batches).
    const TuningOptions& options() const noexcept;

    /// Every candidate that hung, crashed or lost the device so far (CandidateExecutor::faults).
    std::vector<CandidateFault> faults() const;

    /// Plans, then executes `exact_key`: a settled key runs its winner, others are measured
    /// (or, under MissPolicy::run_preferred and run_nearest, run untuned: see KeyReport's
    /// nearest_key and answer_source).
    KeyReport tune(const problem::ProblemKey& exact_key);

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace spvtune::run
