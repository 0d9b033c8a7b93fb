#include <algorithm>
#include <cmath>

#include <spvtune/vulkan/batched_timer.hpp>

namespace spvtune::vulkan {

tune::Sample BatchedTimer::sample(ComputeJob& job) {
    if (batch_ == 0) {
        // The first dispatch of a job pays for cold caches and lazy driver work; calibrate on
        // the faster of two so the batch is not sized from that outlier.
        const DispatchTiming first = job.time(1);
        const DispatchTiming second = job.time(1);
        const DispatchTiming& one = first.per_dispatch_ns < second.per_dispatch_ns ? first : second;
        const double window_ns = static_cast<double>(policy_.min_window.count());
        const double wanted = one.per_dispatch_ns > 0 ? std::ceil(window_ns / one.per_dispatch_ns)
                                                      : policy_.max_batch;
        batch_ = static_cast<std::uint32_t>(std::clamp(
            wanted, 1.0, static_cast<double>(std::max<std::uint32_t>(policy_.max_batch, 1))));
        if (batch_ == 1) {
            // The calibration run already is a full sample.
            return {one.per_dispatch_ns, one.method};
        }
    }
    const DispatchTiming timing = job.time(batch_);
    return {timing.per_dispatch_ns, timing.method};
}

}  // namespace spvtune::vulkan
