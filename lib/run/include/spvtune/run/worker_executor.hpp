#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <spvtune/problem/problem.hpp>
#include <spvtune/run/candidate_executor.hpp>
#include <spvtune/run/worker_protocol.hpp>

namespace spvtune::run {

/// What a worker process is told and how long to wait for it. The worker is this very program,
/// started with worker_argument (see worker_server.hpp): its main must hand that to worker_main.
struct WorkerLaunch {
    /// The worker's first message: the problem file (the one this executor's problem was loaded
    /// from, with the same load options), the device, and how it measures (its batches are also
    /// what the deadlines allow for).
    worker::Setup setup;
    /// The longest a kernel may run before its candidate counts as hung. None: derived from
    /// the key's measurements, max(2 s, 50x the key's best), and 25 s before the key has any.
    std::optional<std::chrono::duration<double>> kernel_timeout;
};

/// Runs a problem's candidates in a worker process under a watchdog, so a kernel that hangs,
/// crashes or loses the device costs its candidate, never the tuner.
///
/// Every request has a deadline; when it passes the worker is killed, and a worker that dies
/// (a signal, an exit, a lost device) is reaped. The candidate at fault then fails with the
/// reason ("timed out: ...", "crashed: ...", "device lost: ..."), is not run again by this
/// executor, and the next request starts a fresh worker. The worker holds the device: this
/// process makes no Vulkan call, so it always gets to report and exit.
class WorkerExecutor final : public CandidateExecutor {
  public:
    WorkerExecutor(const problem::Problem& problem, WorkerLaunch launch);
    ~WorkerExecutor() override;
    WorkerExecutor(const WorkerExecutor&) = delete;
    WorkerExecutor& operator=(const WorkerExecutor&) = delete;

    /// Starts the worker now without waiting for it, so that its start (loading the driver,
    /// opening the device, loading the problem) overlaps what this process does until its first
    /// request, which waits for it to be ready. Otherwise the first request starts it. A worker
    /// that cannot start is reported by that first request, as it would be then.
    void start_early();

    tune::Result<CandidateOutputs> run(const problem::ResolvedCandidate& candidate,
                                       const KeyPlan& plan) override;
    /// Sends the reference's outputs to the worker once (or has it keep them, when they are
    /// its last run's), and has it compare the candidate's there: only a mismatch's buffers
    /// cross the socket. A worker that cannot take the reference runs the candidate unchecked.
    tune::Result<CandidateOutputs> run_checked(
        const problem::ResolvedCandidate& candidate, const KeyPlan& plan,
        const std::shared_ptr<const CandidateOutputs>& reference) override;
    tune::Result<tune::Sample> measure(const problem::ResolvedCandidate& candidate,
                                       const KeyPlan& plan, std::uint32_t runs) override;
    tune::Result<std::vector<tune::Sample>> measure_samples(
        const problem::ResolvedCandidate& candidate, const KeyPlan& plan, std::uint32_t runs,
        std::uint32_t samples) override;
    tune::Status prepare(const problem::ResolvedCandidate& candidate) override;
    /// Passed to the worker, whose build threads build the pipelines ahead.
    void prefetch(const KeyPlan& plan, std::span<const std::size_t> candidates) override;
    /// The wall time of the worker's prepare requests (the pipelines built, or waited for).
    double pipeline_build_seconds() const override;

    std::vector<CandidateFault> faults() const override;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace spvtune::run
