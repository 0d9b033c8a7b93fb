#include <algorithm>
#include <chrono>
#include <limits>
#include <mutex>
#include <unordered_map>

#include <spvtune/base/digest.hpp>
#include <spvtune/problem/problem_runner.hpp>
#include <spvtune/problem/resolve.hpp>

#include "glsl/per_key_glsl.hpp"

namespace spvtune::problem {
namespace {

const ResolvedCandidate* find_runnable(const KeyPlan& plan, std::size_t candidate) {
    for (const ResolvedCandidate& resolved : plan.runnable) {
        if (resolved.candidate == candidate) {
            return &resolved;
        }
    }
    return nullptr;
}

}  // namespace

struct ProblemRunner::Impl {
    const Problem& problem;
    CandidateExecutor& executor;
    OutputDump* dump = nullptr;

    mutable std::mutex mutex;
    /// Per tuning key, each candidate's priority (negative: skipped), from the latest plan.
    std::unordered_map<ProblemKey, std::vector<int>> priorities;
    std::unordered_map<ProblemKey, std::vector<std::vector<tune::Sample>>> samples;
    std::unordered_map<ProblemKey, ExecutorTime> time_spent;

    Impl(const Problem& p, CandidateExecutor& e) : problem(p), executor(e) {}

    void remember_plan(const KeyPlan& plan) {
        std::vector<int> list(problem.candidates.size(), -1);
        for (const ResolvedCandidate& resolved : plan.runnable) {
            list[resolved.candidate] = static_cast<int>(
                std::clamp<std::int64_t>(resolved.priority, 0, std::numeric_limits<int>::max()));
        }
        std::lock_guard lock(mutex);
        priorities.insert_or_assign(plan.tuning_key, std::move(list));
    }

    int priority(std::size_t candidate, const ProblemKey& tuning_key) const {
        std::lock_guard lock(mutex);
        const auto found = priorities.find(tuning_key);
        return found == priorities.end() ? 0 : found->second[candidate];
    }

    /// Runs `body` on the plan's resolved candidate, or says why the plan does not run it.
    template <class Body>
    auto runnable(const KeyPlan& plan, std::size_t candidate, Body body)
        -> decltype(body(std::declval<const ResolvedCandidate&>())) {
        const ResolvedCandidate* resolved = find_runnable(plan, candidate);
        if (resolved == nullptr) {
            for (const SkippedCandidate& skipped : plan.skipped) {
                if (skipped.name == problem.candidates[candidate].name) {
                    return tune::fail("skipped: " + skipped.reason);
                }
            }
            return tune::fail("not runnable for " + to_string(plan.key));
        }
        return body(*resolved);
    }

    /// Runs `call`, adding its wall time to the key's `field`, but for the part the executor
    /// spent on pipeline builds, which goes to pipeline_builds_s.
    template <class Call>
    auto timed(const ProblemKey& key, double ExecutorTime::*field, Call call) -> decltype(call()) {
        const auto start = std::chrono::steady_clock::now();
        const double builds_before = executor.pipeline_build_seconds();
        auto result = call();
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const double builds =
            std::clamp(executor.pipeline_build_seconds() - builds_before, 0.0, seconds);
        std::lock_guard lock(mutex);
        ExecutorTime& spent = time_spent[key];
        spent.*field += seconds - builds;
        spent.pipeline_builds_s += builds;
        return result;
    }
};

ProblemRunner::ProblemRunner(const Problem& problem, CandidateExecutor& executor)
    : impl_(std::make_unique<Impl>(problem, executor)) {}

ProblemRunner::~ProblemRunner() = default;

ProblemTunableSet ProblemRunner::make_set() {
    Impl* impl = impl_.get();
    ProblemTunableSet set([impl](const KeyInputs& inputs) {
        impl->remember_plan(*inputs.plan);
        return inputs.plan->tuning_key;
    });
    for (std::size_t i = 0; i < impl->problem.candidates.size(); ++i) {
        ProblemTunableSet::CandidateType candidate;
        candidate.name = impl->problem.candidates[i].name;
        candidate.content_digest = candidate_digest(impl->problem, i);
        candidate.run = [this, i](const KeyInputs& inputs) { return run(i, *inputs.plan); };
        candidate.measure = [this, i](const KeyInputs& inputs) { return measure(i, *inputs.plan); };
        candidate.prepare = [this, i] { return prepare(i); };
        candidate.priority = [impl, i](const ProblemKey& key) { return impl->priority(i, key); };
        set.add(std::move(candidate));
        if (auto position = grid_position(impl->problem, i)) {
            set.with_grid_position(i, std::move(*position));
        }
    }
    const Problem& problem = impl->problem;
    // Each key's truth is the first reference candidate its plan can run; a plan with none is
    // an error and never reaches the check, so the fallback is only a formality.
    set.with_check(
        [&problem](const CandidateOutputs& want, const CandidateOutputs& got) {
            return compare_outputs(problem, want, got);
        },
        [&problem](const KeyInputs& inputs) -> std::size_t {
            const KeyPlan& plan = *inputs.plan;
            return plan.reference ? plan.runnable[*plan.reference].candidate
                                  : problem.reference.candidates.front();
        });
    // A candidate that fails at run time on one exact key of a bucket is avoided on that key
    // only; the bucket's other members keep running the winner.
    set.with_input_identity(
        [](const KeyInputs& inputs) { return std::hash<ProblemKey>{}(inputs.plan->key); });
    return set;
}

tune::Result<CandidateOutputs> ProblemRunner::run(std::size_t candidate, const KeyPlan& plan) {
    return impl_->runnable(plan, candidate, [&](const ResolvedCandidate& resolved) {
        tune::Result<CandidateOutputs> outputs =
            impl_->timed(plan.key, &ExecutorTime::output_runs_s,
                         [&] { return impl_->executor.run(resolved, plan); });
        if (outputs && impl_->dump != nullptr) {
            const bool reference =
                plan.reference && plan.runnable[*plan.reference].candidate == candidate;
            impl_->dump->write(impl_->problem, candidate, plan.key, reference, outputs.value());
        }
        return outputs;
    });
}

void ProblemRunner::dump_outputs(OutputDump* dump) {
    impl_->dump = dump;
}

tune::Result<tune::Sample> ProblemRunner::measure(std::size_t candidate, const KeyPlan& plan,
                                                  std::uint32_t runs) {
    return impl_->runnable(
        plan, candidate, [&](const ResolvedCandidate& resolved) -> tune::Result<tune::Sample> {
            tune::Result<tune::Sample> sample =
                impl_->timed(plan.key, &ExecutorTime::measuring_s,
                             [&] { return impl_->executor.measure(resolved, plan, runs); });
            if (sample) {
                std::lock_guard lock(impl_->mutex);
                auto& recorded = impl_->samples[plan.key];
                recorded.resize(impl_->problem.candidates.size());
                recorded[candidate].push_back(sample.value());
            }
            return sample;
        });
}

void ProblemRunner::prefetch(const KeyPlan& plan, std::span<const std::size_t> candidates) {
    impl_->executor.prefetch(plan, candidates);
}

tune::Status ProblemRunner::prepare(std::size_t candidate) {
    const Problem& problem = impl_->problem;
    for (const KeyEntry& entry : problem.keys) {
        auto buffers = resolve_buffers(problem, entry.key);
        if (!buffers) {
            continue;
        }
        auto resolved = resolve_candidate(problem, entry.key, candidate, buffers.value());
        if (resolved) {
            tune::Status prepared = impl_->executor.prepare(resolved.value());
            if (!prepared) {
                return prepared;
            }
        }
    }
    return tune::ok();
}

std::vector<std::vector<tune::Sample>> ProblemRunner::samples(const ProblemKey& exact_key) const {
    std::lock_guard lock(impl_->mutex);
    const auto found = impl_->samples.find(exact_key);
    if (found == impl_->samples.end()) {
        return std::vector<std::vector<tune::Sample>>(impl_->problem.candidates.size());
    }
    return found->second;
}

ExecutorTime ProblemRunner::time_spent(const ProblemKey& exact_key) const {
    std::lock_guard lock(impl_->mutex);
    const auto found = impl_->time_spent.find(exact_key);
    return found == impl_->time_spent.end() ? ExecutorTime{} : found->second;
}

namespace {

/// What the step's kernel is: its module's bytes or, for a step compiled per key, what each
/// key's module is made from (so the checksum does not depend on the keys).
std::uint64_t kernel_identity(const DispatchStep& step) {
    return step.module ? step.module->content_hash() : step.per_key_glsl->identity();
}

void add_dispatch_fields(base::Fnv1a& digest, const DispatchStep& step) {
    for (const SpecializationEntry& entry : step.specialization) {
        digest.add(std::uint64_t{entry.id}).add_field(entry.value.expression.text());
    }
    for (const LocatedExpression& count : step.workgroups) {
        digest.add_field(count.expression.text());
    }
    for (const PushConstant& constant : step.push_constants) {
        digest.add_field(vulkan::to_string(constant.type))
            .add_field(constant.value.expression.text());
    }
}

void add_bindings(base::Fnv1a& digest, const Problem& problem, const DispatchStep& step) {
    for (const Binding& binding : step.bindings) {
        const BufferSpec& buffer = problem.buffers[binding.buffer];
        digest.add(std::uint64_t{binding.set}).add(std::uint64_t{binding.binding});
        digest.add_field(buffer.name).add_field(vulkan::to_string(buffer.type));
        digest.add_field(buffer.count.text()).add_field(to_string(buffer.role));
    }
}

}  // namespace

std::string candidate_digest(const Problem& problem, std::size_t index) {
    const Candidate& candidate = problem.candidates[index];
    const CandidateFamily& family = problem.families[candidate.family];
    const DispatchStep& first = family.steps.front();
    // A candidate of one plain step digests as it did before candidates had steps, so the
    // cache entries of existing problems stay valid.
    base::Fnv1a digest;
    digest.add(kernel_identity(first)).add_field(first.entry);
    for (const auto& [name, value] : candidate.point) {
        digest.add_field(name).add(static_cast<std::uint64_t>(value));
    }
    for (const Constraint& constraint : family.constraints) {
        digest.add_field(constraint.condition.expression.text());
    }
    add_dispatch_fields(digest, first);
    for (const std::string& capability : family.required_capabilities) {
        digest.add_field(capability);
    }
    add_bindings(digest, problem, first);
    for (std::size_t s = 0; s < family.steps.size(); ++s) {
        const DispatchStep& step = family.steps[s];
        if (s > 0) {
            digest.add(kernel_identity(step)).add_field(step.entry);
            add_dispatch_fields(digest, step);
            add_bindings(digest, problem, step);
        }
        if (s > 0 || step.repeat.expression.text() != "1" || !step.iteration.empty()) {
            digest.add_field(step.repeat.expression.text()).add_field(step.iteration);
        }
    }
    return base::to_hex(digest.value());
}

}  // namespace spvtune::problem
