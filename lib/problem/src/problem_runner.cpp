#include <algorithm>
#include <limits>
#include <map>
#include <mutex>
#include <unordered_map>

#include <spvtune/base/digest.hpp>
#include <spvtune/problem/device_bridge.hpp>
#include <spvtune/problem/problem_runner.hpp>
#include <spvtune/problem/resolve.hpp>
#include <spvtune/vulkan/buffer.hpp>
#include <spvtune/vulkan/compute_job.hpp>
#include <spvtune/vulkan/compute_pipeline.hpp>
#include <spvtune/vulkan/error.hpp>

namespace spvtune::problem {
namespace {

/// The bytes a specialization list packs to: equal lists give equal pipelines.
std::string specialization_signature(const std::vector<vulkan::Specialization>& list) {
    std::string text;
    for (const auto& entry : list) {
        text += std::to_string(entry.id) + "=" + std::string(vulkan::type_name(entry.value)) + ":";
        std::visit([&](auto v) { text += std::to_string(v); }, entry.value);
        text += ";";
    }
    return text;
}

const ResolvedCandidate* find_runnable(const KeyPlan& plan, std::size_t candidate) {
    for (const ResolvedCandidate& resolved : plan.runnable) {
        if (resolved.candidate == candidate) {
            return &resolved;
        }
    }
    return nullptr;
}

}  // namespace

/// The buffers and jobs of the key being worked on; replaced when another key comes.
struct KeyState {
    ProblemKey key;
    std::vector<std::unique_ptr<vulkan::Buffer>> buffers;  ///< Problem::buffers order
    std::vector<std::vector<std::byte>> initial;           ///< initial contents, same order
    std::map<std::size_t, std::unique_ptr<vulkan::ComputeJob>> jobs;
    std::map<std::size_t, vulkan::BatchedTimer> timers;
};

struct ProblemRunner::Impl {
    const Problem& problem;
    vulkan::Device& device;
    RunnerOptions options;

    mutable std::mutex mutex;
    std::map<std::pair<std::size_t, std::string>, std::unique_ptr<vulkan::ComputePipeline>>
        pipelines;
    std::unique_ptr<KeyState> state;
    /// Per tuning key, each candidate's priority (negative: skipped), from the latest plan.
    std::unordered_map<ProblemKey, std::vector<int>> priorities;
    std::unordered_map<ProblemKey, std::vector<std::vector<tune::Sample>>> samples;

    Impl(const Problem& p, vulkan::Device& d, RunnerOptions o)
        : problem(p), device(d), options(o) {}

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

    vulkan::ComputePipeline& pipeline_for(const ResolvedCandidate& resolved) {
        auto slot =
            std::make_pair(resolved.candidate, specialization_signature(resolved.specializations));
        auto& pipeline = pipelines[slot];
        if (!pipeline) {
            pipeline = std::make_unique<vulkan::ComputePipeline>(
                device, *resolved.module, resolved.entry, resolved.specializations);
        }
        return *pipeline;
    }

    KeyState& state_for(const KeyPlan& plan) {
        if (state && state->key == plan.key) {
            return *state;
        }
        state.reset();  // free the previous key's memory before allocating this one's
        auto next = std::make_unique<KeyState>();
        next->key = plan.key;
        for (const ResolvedBuffer& buffer : plan.buffers) {
            next->initial.push_back(vulkan::make_fill(
                buffer.type, static_cast<std::size_t>(buffer.count), buffer.fill));
            next->buffers.push_back(std::make_unique<vulkan::Buffer>(device, buffer.bytes));
            next->buffers.back()->upload(next->initial.back());
        }
        state = std::move(next);
        return *state;
    }

    vulkan::ComputeJob& job_for(KeyState& key_state, const ResolvedCandidate& resolved) {
        auto& job = key_state.jobs[resolved.candidate];
        if (!job) {
            vulkan::ComputePipeline& pipeline = pipeline_for(resolved);
            std::vector<vulkan::BufferBinding> bindings;
            for (const ResolvedBinding& binding : resolved.bindings) {
                bindings.push_back(
                    {binding.set, binding.binding, key_state.buffers[binding.buffer].get()});
            }
            job = std::make_unique<vulkan::ComputeJob>(
                device, pipeline, bindings, resolved.push_constants, resolved.workgroup_counts);
        }
        return *job;
    }

    /// Outputs to the poison pattern, inouts to their initial contents.
    void reset_checked(KeyState& key_state, const KeyPlan& plan) {
        for (std::size_t i = 0; i < plan.buffers.size(); ++i) {
            const BufferRole role = plan.buffers[i].role;
            if (role == BufferRole::output) {
                const std::vector<std::byte> poison(plan.buffers[i].bytes, poison_byte);
                key_state.buffers[i]->upload(poison);
            } else if (role == BufferRole::inout) {
                key_state.buffers[i]->upload(key_state.initial[i]);
            }
        }
    }

    template <class Body>
    auto guarded(const KeyPlan& plan, std::size_t candidate, Body body)
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
        try {
            return body(*resolved);
        } catch (const vulkan::Error& error) {
            return tune::fail(error.what());
        }
    }
};

ProblemRunner::ProblemRunner(const Problem& problem, vulkan::Device& device, RunnerOptions options)
    : impl_(std::make_unique<Impl>(problem, device, options)) {}

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
    }
    const Problem& problem = impl->problem;
    set.with_check(
        [&problem](const CandidateOutputs& want, const CandidateOutputs& got) {
            return compare_outputs(problem, want, got);
        },
        problem.reference.candidate);
    return set;
}

tune::Result<CandidateOutputs> ProblemRunner::run(std::size_t candidate, const KeyPlan& plan) {
    std::lock_guard lock(impl_->mutex);
    return impl_->guarded(
        plan, candidate, [&](const ResolvedCandidate& resolved) -> tune::Result<CandidateOutputs> {
            KeyState& state = impl_->state_for(plan);
            vulkan::ComputeJob& job = impl_->job_for(state, resolved);
            impl_->reset_checked(state, plan);
            job.run();
            CandidateOutputs outputs;
            for (const Comparison& comparison : impl_->problem.reference.compare) {
                outputs.buffers.push_back(state.buffers[comparison.buffer]->download());
            }
            return outputs;
        });
}

tune::Result<tune::Sample> ProblemRunner::measure(std::size_t candidate, const KeyPlan& plan) {
    std::lock_guard lock(impl_->mutex);
    return impl_->guarded(
        plan, candidate, [&](const ResolvedCandidate& resolved) -> tune::Result<tune::Sample> {
            KeyState& state = impl_->state_for(plan);
            vulkan::ComputeJob& job = impl_->job_for(state, resolved);
            // Every sample starts from the same data, so values that drift over repeated
            // runs (growing sums, denormals) cannot make one candidate's samples slower.
            impl_->reset_checked(state, plan);
            auto timer = state.timers.try_emplace(candidate, impl_->options.batch).first;
            const tune::Sample sample = to_sample(timer->second.sample(job));
            auto& recorded = impl_->samples[plan.key];
            recorded.resize(impl_->problem.candidates.size());
            recorded[candidate].push_back(sample);
            return sample;
        });
}

tune::Status ProblemRunner::prepare(std::size_t candidate) {
    std::lock_guard lock(impl_->mutex);
    const Problem& problem = impl_->problem;
    try {
        for (const KeyEntry& entry : problem.keys) {
            auto buffers = resolve_buffers(problem, entry.key);
            if (!buffers) {
                continue;
            }
            auto resolved = resolve_candidate(problem, entry.key, candidate, buffers.value());
            if (resolved) {
                impl_->pipeline_for(resolved.value());
            }
        }
    } catch (const vulkan::Error& error) {
        return tune::fail(error.what());
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

std::string candidate_digest(const Problem& problem, std::size_t index) {
    const Candidate& candidate = problem.candidates[index];
    const CandidateFamily& family = problem.families[candidate.family];
    base::Fnv1a digest;
    digest.add(family.module->content_hash()).add_field(family.entry);
    for (const auto& [name, value] : candidate.point) {
        digest.add_field(name).add(static_cast<std::uint64_t>(value));
    }
    for (const Constraint& constraint : family.constraints) {
        digest.add_field(constraint.condition.expression.text());
    }
    for (const SpecializationEntry& entry : family.specialization) {
        digest.add(std::uint64_t{entry.id}).add_field(entry.value.expression.text());
    }
    for (const LocatedExpression& count : family.workgroups) {
        digest.add_field(count.expression.text());
    }
    for (const PushConstant& constant : family.push_constants) {
        digest.add_field(vulkan::to_string(constant.type))
            .add_field(constant.value.expression.text());
    }
    for (const std::string& capability : family.required_capabilities) {
        digest.add_field(capability);
    }
    for (const Binding& binding : family.bindings) {
        const BufferSpec& buffer = problem.buffers[binding.buffer];
        digest.add(std::uint64_t{binding.set}).add(std::uint64_t{binding.binding});
        digest.add_field(buffer.name).add_field(vulkan::to_string(buffer.type));
        digest.add_field(buffer.count.text()).add_field(to_string(buffer.role));
    }
    return base::to_hex(digest.value());
}

}  // namespace spvtune::problem
