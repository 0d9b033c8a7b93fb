#include <algorithm>
#include <cmath>

#include <spvtune/vulkan/batched_timer.hpp>

namespace spvtune::vulkan {

std::uint32_t batch_size(double per_dispatch_ns, const BatchPolicy& policy) noexcept {
    const double most = std::max<std::uint32_t>(policy.max_batch, 1);
    if (!(per_dispatch_ns > 0)) {
        return static_cast<std::uint32_t>(most);
    }
    const double window_ns = static_cast<double>(policy.min_window.count());
    return static_cast<std::uint32_t>(
        std::clamp(std::ceil(window_ns / per_dispatch_ns), 1.0, most));
}

DispatchTiming BatchedTimer::sample(ComputeJob& job) {
    if (batch_ == 0) {
        // A job's first run pays for cold caches and lazy driver work: calibrated on it, a job
        // takes the faster of two, so the batch is not sized from that outlier. A job already run
        // (its output checked) has paid, and a second run would be a kernel's time spent on
        // nothing: a tenth of a search's on lavapipe, whose kernels are long.
        DispatchTiming one = job.time(1);
        if (job.runs() == 1) {
            const DispatchTiming second = job.time(1);
            if (second.per_dispatch_ns < one.per_dispatch_ns) {
                one = second;
            }
        }
        batch_ = batch_size(one.per_dispatch_ns, policy_);
        if (batch_ == 1) {
            // The calibration run already is a full sample.
            return one;
        }
    }
    return job.time(batch_);
}

}  // namespace spvtune::vulkan
