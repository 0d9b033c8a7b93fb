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
        // A job that never ran calibrates on the faster of two runs: its first pays for lazy
        // driver work and cold caches, and would size the batch too small. One already run has
        // paid the driver's part (the caches, only if it ran just before). A first run that
        // spanned the window many times over needs no second: the batch is one run unless a
        // warm run were that many times faster, far beyond what cold caches cost (up to about
        // 4 times on lavapipe), and the second run was a whole kernel's time spent on nothing.
        // With batch 1 that cold run is the sample returned: a warm-up's, which is discarded,
        // unless the settings ask for no warm-up and no check ran (then the user's choice), or
        // a search reads a point before checking it (on the split-K space, first readings were
        // 0.96 of the later ones' median where a check had run first 0.93: a few per cent).
        const bool never_ran = job.runs() == 0;
        DispatchTiming one = job.time(1);
        const double window_ns = static_cast<double>(policy_.min_window.count());
        if (never_ran && one.per_dispatch_ns < cold_run_margin * window_ns) {
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
