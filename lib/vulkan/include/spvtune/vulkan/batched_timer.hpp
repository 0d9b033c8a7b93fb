#pragma once

#include <chrono>
#include <cstdint>

#include <spvtune/vulkan/compute_job.hpp>

namespace spvtune::vulkan {

/// How many dispatches one sample holds.
struct BatchPolicy {
    /// A sample spans at least this much device time, so that timestamp granularity and
    /// per-submission overhead vanish next to the kernel's time.
    std::chrono::nanoseconds min_window = std::chrono::milliseconds(1);
    /// Upper bound on dispatches per sample, for kernels far shorter than the window.
    std::uint32_t max_batch = 4096;
};

/// Dispatches per sample for a kernel taking `per_dispatch_ns`: enough to span the window,
/// at least 1, at most the policy's maximum.
std::uint32_t batch_size(double per_dispatch_ns, const BatchPolicy& policy) noexcept;

/// Takes samples of one job: the first call calibrates a batch size from one run of the job (the
/// faster of two when the job had never run and that run spanned less than `cold_run_margin`
/// windows: a first run pays for lazy driver work and cold caches), every sample after that
/// times that many back-to-back runs (DispatchTiming::per_dispatch_ns is the time of one).
class BatchedTimer {
  public:
    /// A never-run job's first run spanning at least this many windows is its calibration.
    static constexpr double cold_run_margin = 8;

    explicit BatchedTimer(BatchPolicy policy = {}) : policy_(policy) {}

    DispatchTiming sample(ComputeJob& job);

    /// Dispatches per sample; 0 until the first sample.
    std::uint32_t batch() const noexcept { return batch_; }

  private:
    BatchPolicy policy_;
    std::uint32_t batch_ = 0;
};

}  // namespace spvtune::vulkan
