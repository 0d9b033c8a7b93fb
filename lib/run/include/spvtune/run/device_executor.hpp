#pragma once

#include <cstddef>
#include <memory>
#include <span>

#include <spvtune/problem/problem.hpp>
#include <spvtune/run/candidate_executor.hpp>
#include <spvtune/vulkan/batched_timer.hpp>
#include <spvtune/vulkan/device.hpp>

namespace spvtune::run {

/// The most candidates a DeviceExecutor keeps built (pipelines and recorded job) by default.
inline constexpr std::size_t default_max_prepared_candidates = 256;

class KeptPipelineCache;

/// How a DeviceExecutor builds pipelines.
struct PipelineBuilding {
    /// Every pipeline is created with this cache, saved when a new key comes (at most every few
    /// seconds) and when the executor ends; null: no pipeline cache. Must outlive the executor.
    KeptPipelineCache* cache = nullptr;
    /// Threads that build the pipelines of the candidates prefetch() announces, while the
    /// caller measures; 0: every pipeline is built by the call that needs it.
    std::size_t threads = 0;
};

/// The build threads by default for `device`: $SPVTUNE_BUILD_THREADS when it is a number, else
/// min(2, hardware concurrency), but none on a CPU device (lavapipe): there a build would take a
/// core from the kernels being timed, for little gain, since such a driver compiles a pipeline at
/// its first dispatch rather than when it is created.
std::size_t default_build_threads(const vulkan::PhysicalDeviceInfo& device);

/// Runs a problem's candidates in this process on one Vulkan device.
///
/// It allocates one key's buffers at a time (inputs uploaded once, freed when another key
/// comes) and keeps the pipelines and recorded job of the `max_prepared` candidates used most
/// recently: a candidate used again is not rebuilt, and a grid of 65,536 candidates does not hold
/// 65,536 pipelines (the least recently used is freed and rebuilt if it is needed again). Calls
/// are serialised: one executor drives one device queue. Pipelines of candidates announced by
/// prefetch() are built ahead on build threads (at most a few candidates beyond those kept). Errors
/// of the Vulkan engine become the call's error.
class DeviceExecutor final : public CandidateExecutor {
  public:
    DeviceExecutor(const problem::Problem& problem, vulkan::Device& device,
                   vulkan::BatchPolicy batch = {},
                   std::size_t max_prepared = default_max_prepared_candidates,
                   PipelineBuilding building = {});
    ~DeviceExecutor() override;
    DeviceExecutor(const DeviceExecutor&) = delete;
    DeviceExecutor& operator=(const DeviceExecutor&) = delete;

    tune::Result<CandidateOutputs> run(const problem::ResolvedCandidate& candidate,
                                       const KeyPlan& plan) override;
    /// run(); when the outputs hold `reference`'s bytes over their checked ranges (and those
    /// bytes hold no NaN, which matches nothing) and the run broke nothing, the verdict that they
    /// match (against `reference`) instead of the buffers, which are then not read back.
    tune::Result<CandidateOutputs> run_checked(
        const problem::ResolvedCandidate& candidate, const KeyPlan& plan,
        const std::shared_ptr<const CandidateOutputs>& reference) override;
    tune::Result<tune::Sample> measure(const problem::ResolvedCandidate& candidate,
                                       const KeyPlan& plan, std::uint32_t runs) override;
    tune::Result<std::vector<tune::Sample>> measure_samples(
        const problem::ResolvedCandidate& candidate, const KeyPlan& plan, std::uint32_t runs,
        std::uint32_t samples) override;
    tune::Status prepare(const problem::ResolvedCandidate& candidate) override;
    void prefetch(const KeyPlan& plan, std::span<const std::size_t> candidates) override;
    double pipeline_build_seconds() const override;

    /// Readies the candidate's job for the plan's key, dispatching its pipelines once with no
    /// workgroups if they never were: a driver that compiles a pipeline at its first dispatch
    /// (lavapipe, some GPU drivers) compiles it here, under the compile timeout, and the time
    /// counts as pipeline build time. run() and measure() do the same for a job they create; a
    /// worker calls this before a candidate's first run, so that the run's deadline is a
    /// kernel's and never includes a compile.
    tune::Status warm_up(const problem::ResolvedCandidate& candidate, const KeyPlan& plan);

    /// Whether a call failed in a way that leaves the device unable to run anything more: it
    /// was lost, or a submission did not finish within the fence timeout. A worker process
    /// reports it and exits, so that the next one starts on a fresh device.
    bool device_lost() const;

    /// How many candidates hold built pipelines now: at most `max_prepared`.
    std::size_t prepared_candidates() const;
    /// How many candidates' pipelines are built ahead and not yet used.
    std::size_t built_ahead() const;
    /// How many pipelines this executor has created so far (built ahead or not, used or not).
    std::size_t pipelines_built() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace spvtune::run
