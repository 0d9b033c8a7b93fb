#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <spvtune/problem/problem.hpp>
#include <spvtune/run/candidate_executor.hpp>
#include <spvtune/vulkan/batched_timer.hpp>

namespace spvtune::run {

/// How to start a worker process and how long to wait for it.
struct WorkerLaunch {
    /// The worker's command line (argv[0]: the program's path): a process that loads the same
    /// problem file on the same device and serves serve_worker's protocol on worker::worker_fd.
    std::vector<std::string> argv;
    /// The longest a kernel may run before its candidate counts as hung. None: derived from
    /// the key's measurements, max(2 s, 50x the key's best), and 25 s before the key has any.
    std::optional<std::chrono::duration<double>> kernel_timeout;
    /// The batches the worker measures, to allow for a sample's many dispatches.
    vulkan::BatchPolicy batch;
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

    tune::Result<CandidateOutputs> run(const problem::ResolvedCandidate& candidate,
                                       const KeyPlan& plan) override;
    tune::Result<tune::Sample> measure(const problem::ResolvedCandidate& candidate,
                                       const KeyPlan& plan, std::uint32_t runs) override;
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
