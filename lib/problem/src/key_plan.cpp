#include <spvtune/problem/key_plan.hpp>

namespace spvtune::problem {

KeyPlan plan_key(const Problem& problem, const ProblemKey& key, const DeviceLimits* limits,
                 tune::AutotuneLevel level) {
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
    std::optional<std::string> reference_skip;
    for (std::size_t i = 0; i < problem.candidates.size(); ++i) {
        auto resolved = resolve_candidate(problem, key, i, plan.buffers);
        std::optional<std::string> reason;
        if (!resolved) {
            reason = std::move(resolved).error();
        } else if (limits != nullptr) {
            if (auto fits = check_device_limits(resolved.value(), plan.buffers, *limits); !fits) {
                reason = std::move(fits).error();
            }
        }
        if (reason) {
            if (i == problem.reference.candidate) {
                reference_skip = *reason;
            }
            plan.skipped.push_back({problem.candidates[i].name, std::move(*reason)});
            continue;
        }
        if (i == problem.reference.candidate) {
            plan.reference = plan.runnable.size();
        }
        plan.runnable.push_back(std::move(resolved).value());
    }
    if (plan.runnable.empty()) {
        std::string reasons;
        for (const SkippedCandidate& skipped : plan.skipped) {
            reasons += "\n    " + skipped.name + ": " + skipped.reason;
        }
        plan.error = "no candidate can run this key:" + reasons;
    } else if (reference_skip) {
        plan.error = "the reference candidate " +
                     problem.candidates[problem.reference.candidate].name +
                     " cannot run this key, so outputs cannot be checked: " + *reference_skip;
    }
    return plan;
}

}  // namespace spvtune::problem
