#include <spvtune/run/key_plan.hpp>

namespace spvtune::run {
namespace {

/// Why outputs cannot be checked when every reference candidate was skipped: each one's
/// reason, most trusted first.
std::string references_skipped(const problem::Problem& problem, const KeyPlan& plan) {
    const std::vector<std::size_t>& references = problem.reference.candidates;
    std::string reasons;
    for (const std::size_t candidate : references) {
        const std::string& name = problem.candidates[candidate].name;
        for (const SkippedCandidate& skipped : plan.skipped) {
            if (skipped.name == name) {
                reasons += references.size() == 1 ? " " + skipped.reason
                                                  : "\n    " + name + ": " + skipped.reason;
            }
        }
    }
    if (references.size() == 1) {
        return "the reference candidate " + problem.candidates[references.front()].name +
               " cannot run this key, so outputs cannot be checked:" + reasons;
    }
    return "none of the reference candidates can run this key, so outputs cannot be checked:" +
           reasons;
}

}  // namespace

KeyPlan plan_key(const problem::Problem& problem, const problem::ProblemKey& key,
                 const DeviceLimits* limits, tune::AutotuneLevel level) {
    KeyPlan plan;
    plan.key = key;
    auto buffers = resolve_buffers(problem, key);
    if (!buffers) {
        plan.tuning_key = key;
        plan.error = std::move(buffers).error();
        return plan;
    }
    plan.tuning_key = problem.tuning_key(key, level);
    plan.buffers = std::move(buffers).value();
    const std::optional<problem::DeviceProperties> device =
        limits != nullptr ? std::optional(limits->properties()) : std::nullopt;
    for (std::size_t i = 0; i < problem.candidates.size(); ++i) {
        auto resolved =
            resolve_candidate(problem, key, i, plan.buffers, device ? &*device : nullptr);
        std::optional<std::string> reason;
        if (!resolved) {
            reason = std::move(resolved).error();
        } else if (limits != nullptr) {
            if (auto fits = check_device_limits(resolved.value(), plan.buffers, *limits); !fits) {
                reason = std::move(fits).error();
            }
        }
        if (reason) {
            plan.skipped.push_back({problem.candidates[i].name, std::move(*reason)});
            continue;
        }
        plan.runnable.push_back(std::move(resolved).value());
    }
    // The first reference, most trusted first, that can run this key is its truth.
    const std::vector<std::size_t>& references = problem.reference.candidates;
    for (const std::size_t candidate : references) {
        for (std::size_t r = 0; r < plan.runnable.size() && !plan.reference; ++r) {
            if (plan.runnable[r].candidate == candidate) {
                plan.reference = r;
            }
        }
    }
    if (!plan.runnable.empty() && limits != nullptr) {
        // Once for the key rather than per candidate: the buffers are the same for every one.
        // After the device limits, which say more about a buffer too large for the device.
        if (auto fits = check_host_memory(plan.buffers, *limits); !fits) {
            plan.error = std::move(fits).error();
            return plan;
        }
    }
    if (plan.runnable.empty()) {
        std::string reasons;
        for (const SkippedCandidate& skipped : plan.skipped) {
            reasons += "\n    " + skipped.name + ": " + skipped.reason;
        }
        plan.error = "no candidate can run this key:" + reasons;
    } else if (!plan.reference) {
        plan.error = references_skipped(problem, plan);
        plan.runs_unchecked = true;
    }
    return plan;
}

}  // namespace spvtune::run
