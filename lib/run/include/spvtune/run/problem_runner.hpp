#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include <spvtune/problem/candidate_identity.hpp>
#include <spvtune/problem/grid_position.hpp>
#include <spvtune/problem/problem.hpp>
#include <spvtune/run/candidate_executor.hpp>
#include <spvtune/run/key_plan.hpp>
#include <spvtune/run/output_check.hpp>
#include <spvtune/run/output_dump.hpp>
#include <spvtune/tune/sampling.hpp>
#include <spvtune/tune/search.hpp>
#include <spvtune/tune/tunable_set.hpp>

namespace spvtune::run {

/// What the tuner hands to a problem's candidates: the plan of one key.
struct KeyInputs {
    const KeyPlan* plan = nullptr;
};

/// Wall time a key's executor calls took, by kind: where tuning time goes besides the kernels.
struct ExecutorTime {
    /// Measuring calls: the timed batches plus their submission and timestamp read-back.
    double measuring_s = 0;
    /// Output runs (the checks): inputs reset, one dispatch, outputs read back and compared
    /// with the reference's (in the worker, or here). The dispatch's own time is among
    /// ProblemRunner::run_readings.
    double output_runs_s = 0;
    /// What those calls spent building pipelines or waiting for the build threads to finish
    /// them (CandidateExecutor::pipeline_build_seconds), taken out of the two above.
    double pipeline_builds_s = 0;
};

/// A problem's candidates as a tunable set: keyed by the bucketed tuning key, producing the
/// checked buffers' contents.
using ProblemTunableSet = tune::TunableSet<problem::ProblemKey, KeyInputs, CandidateOutputs>;

/// A problem's candidates as a tunable set over an executor: the bridge between the problem
/// description and the tuner.
///
/// It decides what may run for a key (the plan's runnable candidates; a skipped one fails with
/// its reason), hands the rest to the executor, and keeps every sample measured, for reports.
/// The runner and its executor must outlive the sets it makes.
class ProblemRunner {
  public:
    ProblemRunner(const problem::Problem& problem, CandidateExecutor& executor);
    ~ProblemRunner();
    ProblemRunner(const ProblemRunner&) = delete;
    ProblemRunner& operator=(const ProblemRunner&) = delete;

    /// Every candidate of the problem, in Problem::candidates order, with output checks against
    /// the reference candidate. Once a reference's outputs are the key's truth (the set took
    /// them: no reference fault), the other candidates' runs for that key are checked where
    /// they run (CandidateExecutor::run_checked), so a candidate whose outputs match returns no
    /// buffers, only the verdict. A candidate's priority for a key is the one its plan resolved;
    /// one the plan skipped gets a negative priority (never run for that key). The candidates
    /// the tuner announces (TunableSet::with_prefetch) go to the executor's prefetch.
    ProblemTunableSet make_set();

    /// From now on, every output `run` produces is also written to `dump` (null: none); the dump
    /// must outlive the runner's use.
    void dump_outputs(OutputDump* dump);

    /// One run of `candidate` for the plan's key: its checked buffers' contents afterwards; for a
    /// candidate checked where it ran (see make_set), the verdict instead when they match.
    tune::Result<CandidateOutputs> run(std::size_t candidate, const KeyPlan& plan);

    /// One sample of `candidate` for the plan's key over a batch of `runs` (own_batch: the
    /// executor sizes it; see CandidateExecutor::measure), recorded for samples().
    tune::Result<tune::Sample> measure(std::size_t candidate, const KeyPlan& plan,
                                       std::uint32_t runs = own_batch);
    /// `samples` samples over a batch of `runs` each, in one submission where the executor can
    /// (CandidateExecutor::measure_samples), each recorded for samples().
    tune::Result<std::vector<tune::Sample>> measure_samples(std::size_t candidate,
                                                            const KeyPlan& plan, std::uint32_t runs,
                                                            std::uint32_t samples);

    /// Tells the executor which candidates of the plan come next, in order (a hint: their
    /// pipelines can be built ahead).
    void prefetch(const KeyPlan& plan, std::span<const std::size_t> candidates);
    /// Prepares the candidate for every key of the problem it can run for.
    tune::Status prepare(std::size_t candidate);

    /// Everything `measure` returned for `exact_key`, per candidate (in Problem::candidates
    /// order), warm-ups first. Empty vectors for candidates never measured.
    std::vector<std::vector<tune::Sample>> samples(const problem::ProblemKey& exact_key) const;
    /// The readings of the output runs `run` made for `exact_key` (CandidateOutputs::reading),
    /// per candidate in the same order: kernel time spent checking, part of output_runs_s.
    std::vector<std::vector<tune::Sample>> run_readings(const problem::ProblemKey& exact_key) const;

    /// The wall time of `run` and `measure` calls for `exact_key` so far.
    ExecutorTime time_spent(const problem::ProblemKey& exact_key) const;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace spvtune::run
