#pragma once

#include <memory>

#include <spvtune/problem/candidate_executor.hpp>
#include <spvtune/problem/problem.hpp>
#include <spvtune/vulkan/batched_timer.hpp>
#include <spvtune/vulkan/device.hpp>

namespace spvtune::problem {

/// Runs a problem's candidates in this process on one Vulkan device.
///
/// It compiles each (candidate, specialization) once and allocates one key's buffers at a time
/// (inputs uploaded once, freed when another key comes). Calls are serialised: one executor
/// drives one device queue. Errors of the Vulkan engine become the call's error.
class DeviceExecutor final : public CandidateExecutor {
  public:
    DeviceExecutor(const Problem& problem, vulkan::Device& device, vulkan::BatchPolicy batch = {});
    ~DeviceExecutor() override;
    DeviceExecutor(const DeviceExecutor&) = delete;
    DeviceExecutor& operator=(const DeviceExecutor&) = delete;

    tune::Result<CandidateOutputs> run(const ResolvedCandidate& candidate,
                                       const KeyPlan& plan) override;
    tune::Result<tune::Sample> measure(const ResolvedCandidate& candidate, const KeyPlan& plan,
                                       std::uint32_t runs) override;
    tune::Status prepare(const ResolvedCandidate& candidate) override;

    /// Whether a call failed in a way that leaves the device unable to run anything more: it
    /// was lost, or a submission did not finish within the fence timeout. A worker process
    /// reports it and exits, so that the next one starts on a fresh device.
    bool device_lost() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace spvtune::problem
