#include "worker/watchdog.hpp"

#include <algorithm>

#include <spvtune/base/duration_text.hpp>

namespace spvtune::run::worker {
namespace {

constexpr double transfer_allowance_s = 1;
constexpr double unmeasured_kernel_s = 25;
constexpr double least_kernel_s = 2;
constexpr double slowdown_allowed = 50;
constexpr double pipeline_build_s = 120;

}  // namespace

Watchdog::Watchdog(std::optional<std::chrono::duration<double>> kernel_timeout,
                   vulkan::BatchPolicy batch)
    : batch_(batch) {
    if (kernel_timeout) {
        kernel_timeout_s_ = kernel_timeout->count();
    }
}

Allowance Watchdog::kernel(const problem::ProblemKey& key) const {
    if (kernel_timeout_s_) {
        return {*kernel_timeout_s_, "kernel timeout " + base::duration_text(*kernel_timeout_s_)};
    }
    const auto found = keys_.find(key);
    if (found == keys_.end() || !found->second.best_s) {
        return {unmeasured_kernel_s, "kernel timeout " + base::duration_text(unmeasured_kernel_s) +
                                         ": nothing measured for the key yet"};
    }
    const double best = *found->second.best_s;
    const double seconds = std::max(least_kernel_s, slowdown_allowed * best);
    return {seconds, "kernel timeout " + base::duration_text(seconds) +
                         " = max(2 s, 50x the key's best " + base::duration_text(best) + ")"};
}

Allowance Watchdog::prepare() const {
    return {pipeline_build_s, "a pipeline build"};
}

Allowance Watchdog::run(const problem::ProblemKey& key) const {
    Allowance kernel_time = kernel(key);
    return {kernel_time.seconds + transfer_allowance_s,
            kernel_time.why + ", plus 1 s for transfers"};
}

Allowance Watchdog::measure(const problem::ProblemKey& key, std::size_t candidate,
                            std::uint32_t runs, std::uint32_t samples) const {
    const Allowance kernel_time = kernel(key);
    const LastSample* last = nullptr;
    if (const auto found = keys_.find(key); found != keys_.end()) {
        if (const auto sample = found->second.last.find(candidate);
            sample != found->second.last.end()) {
            last = &sample->second;
        }
    }
    if (runs != own_batch) {
        const std::uint64_t all_runs = std::uint64_t{runs} * std::max<std::uint32_t>(samples, 1);
        const auto count = static_cast<double>(all_runs);
        if (last != nullptr) {
            return {kernel_time.seconds + count * last->run_s + transfer_allowance_s,
                    kernel_time.why + ", plus " + std::to_string(all_runs) + " of its last " +
                        base::duration_text(last->run_s) + " runs and 1 s for transfers"};
        }
        return {count * kernel_time.seconds + transfer_allowance_s,
                kernel_time.why + ", for each of " + std::to_string(all_runs) +
                    " runs, plus 1 s for transfers"};
    }
    if (last != nullptr) {
        const double batch_s = last->run_s * static_cast<double>(last->runs);
        return {kernel_time.seconds + batch_s + transfer_allowance_s,
                kernel_time.why + ", plus the last batch's " + base::duration_text(batch_s) +
                    " and 1 s for transfers"};
    }
    const double window = std::chrono::duration<double>(batch_.min_window).count();
    return {2 * kernel_time.seconds + window + transfer_allowance_s,
            kernel_time.why + ", twice for a first sample's calibration, plus the " +
                base::duration_text(window) + " window and 1 s for transfers"};
}

void Watchdog::ran(const problem::ProblemKey& key, std::chrono::steady_clock::duration took) {
    const double seconds = std::chrono::duration<double>(took).count();
    auto& best = keys_[key].best_s;
    best = best ? std::min(*best, seconds) : seconds;
}

void Watchdog::measured(const problem::ProblemKey& key, std::size_t candidate,
                        const tune::Sample& sample) {
    KeyTimes& times = keys_[key];
    const double one = sample.ns_per_run * 1e-9;
    times.best_s = times.best_s ? std::min(*times.best_s, one) : one;
    times.last[candidate] = {one, sample.runs};
}

}  // namespace spvtune::run::worker
