#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <spvtune/problem/resolve.hpp>
#include <spvtune/run/key_plan.hpp>
#include <spvtune/run/output_check.hpp>
#include <spvtune/tune/result.hpp>
#include <spvtune/tune/sampling.hpp>

namespace spvtune::run {

/// CandidateExecutor::measure's batch of runs when the executor sizes it itself.
inline constexpr std::uint32_t own_batch = 0;

/// How a candidate took down the process that ran it.
enum class FaultKind {
    timed_out,    ///< a request outlived its deadline (a hang, or pathologically slow)
    crashed,      ///< the process died: a signal, an abort, an exit
    device_lost,  ///< the device was lost (VK_ERROR_DEVICE_LOST, a fence that never signals)
};

/// "timed out", "crashed" or "device lost", as reports show a faulted candidate's status.
std::string_view fault_kind_name(FaultKind kind) noexcept;

/// A candidate that faulted, with what it was doing and what happened.
struct CandidateFault {
    std::size_t candidate = 0;  ///< index into Problem::candidates
    std::string name;
    FaultKind kind = FaultKind::crashed;
    std::string reason;  ///< "timed out: ...", "crashed: ...", "device lost: ..."
};

/// Where a problem's candidates run: the seam between the tuning glue (ProblemRunner makes the
/// tunable set, decides what may run for a key and keeps the samples) and the hardware.
/// DeviceExecutor runs them in this process on a Vulkan device; WorkerExecutor runs them in a
/// worker process under a watchdog, so a faulty kernel cannot take the tuner down.
///
/// Every call gets a candidate the key's plan made runnable, and reports failures as errors
/// (never exceptions). Calls may come from several threads; an implementation serialises them.
class CandidateExecutor {
  public:
    virtual ~CandidateExecutor() = default;

    /// One run for the plan's key: the checked buffers' contents afterwards, outputs poisoned
    /// and inouts (and scratch buffers) reset to their initial contents before it, so unwritten
    /// elements show; elements outside each buffer's checked range are 0 (keep_checked_range).
    virtual tune::Result<CandidateOutputs> run(const problem::ResolvedCandidate& candidate,
                                               const KeyPlan& plan) = 0;

    /// run(), the outputs to be checked against `reference`'s (the key's truth). An executor
    /// that runs elsewhere (a worker process) compares them there and returns the verdict
    /// (CandidateOutputs::verdict), and the buffers only when they differ, so outputs that
    /// match never travel; compare_outputs then gives the verdict it returned. This one
    /// returns run()'s outputs, for the caller to compare.
    virtual tune::Result<CandidateOutputs> run_checked(
        const problem::ResolvedCandidate& candidate, const KeyPlan& plan,
        const std::shared_ptr<const CandidateOutputs>& /*reference*/) {
        return run(candidate, plan);
    }

    /// One sample for the plan's key: the time of one run (every dispatch of the candidate's
    /// steps), measured over a batch of `runs` back-to-back runs. `own_batch` lets the executor
    /// size the batch to the sampling window from the candidate's first runs and keep that size.
    /// A count is for arms compared with each other: the fixed cost of a submission weighs
    /// 1 / runs on each run, so arms judged side by side must be timed over equal batches.
    virtual tune::Result<tune::Sample> measure(const problem::ResolvedCandidate& candidate,
                                               const KeyPlan& plan, std::uint32_t runs) = 0;

    /// `samples` samples as measure() takes them, each over a batch of `runs` (not own_batch),
    /// taken in one submission where the executor can, so that the fixed cost of a call and a
    /// submission is paid once for all of them. They run on from one reset of the buffers, as
    /// the runs of one batch do. This default takes them one call each; the first error ends it.
    virtual tune::Result<std::vector<tune::Sample>> measure_samples(
        const problem::ResolvedCandidate& candidate, const KeyPlan& plan, std::uint32_t runs,
        std::uint32_t samples) {
        return tune::one_call_each(samples, [&] { return measure(candidate, plan, runs); });
    }

    /// Builds what running the candidate needs (its steps' pipelines), without running it.
    virtual tune::Status prepare(const problem::ResolvedCandidate& candidate) = 0;

    /// A hint: these candidates of the plan (indices into Problem::candidates) are the next to
    /// run or be measured, in that order, so their pipelines can be built ahead while others
    /// are measured. Replaces the previous hint; cheap; may be ignored.
    virtual void prefetch(const KeyPlan& /*plan*/, std::span<const std::size_t> /*candidates*/) {}

    /// The wall time calls so far spent building pipelines or waiting for them to be built
    /// (builds done ahead while the caller was busy elsewhere do not count), in seconds.
    virtual double pipeline_build_seconds() const { return 0; }

    /// Every fault so far, in order: candidates whose call hung, crashed or lost the device and
    /// that the executor survived. Empty for an executor that cannot survive one (in process).
    virtual std::vector<CandidateFault> faults() const { return {}; }
};

}  // namespace spvtune::run
