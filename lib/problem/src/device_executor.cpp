#include <algorithm>
#include <list>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include <spvtune/problem/device_bridge.hpp>
#include <spvtune/problem/device_executor.hpp>
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
        std::visit(
            [&](auto v) {
                if constexpr (std::is_same_v<decltype(v), vulkan::Float16>) {
                    text += std::to_string(v.bits);
                } else {
                    text += std::to_string(v);
                }
            },
            entry.value);
        text += ";";
    }
    return text;
}

/// Runs `body`, turning an error of the Vulkan engine into the call's error; an error after
/// which the device cannot run anything more also sets `unusable`.
template <class Body>
auto engine_errors_as_results(bool& unusable, Body body) -> decltype(body()) {
    try {
        return body();
    } catch (const vulkan::DeviceLostError& error) {
        unusable = true;
        return tune::fail(error.what());
    } catch (const vulkan::TimeoutError& error) {
        unusable = true;
        return tune::fail(error.what());
    } catch (const vulkan::Error& error) {
        return tune::fail(error.what());
    }
}

/// The buffers and jobs of the key being worked on; replaced when another key comes.
struct KeyState {
    ProblemKey key;
    std::vector<std::unique_ptr<vulkan::Buffer>> buffers;  ///< Problem::buffers order
    std::vector<std::vector<std::byte>> initial;           ///< initial contents, same order
    std::map<std::size_t, std::unique_ptr<vulkan::ComputeJob>> jobs;
    std::map<std::size_t, vulkan::BatchedTimer> timers;
};

}  // namespace

struct DeviceExecutor::Impl {
    const Problem& problem;
    vulkan::Device& device;
    vulkan::BatchPolicy batch;
    std::size_t max_prepared;

    mutable std::mutex mutex;
    /// By (candidate, step, module, specializations): the repetitions of a step share one
    /// pipeline; a step compiled per key has a module per key.
    std::map<std::tuple<std::size_t, std::size_t, std::uint64_t, std::string>,
             std::unique_ptr<vulkan::ComputePipeline>>
        pipelines;
    /// The candidates holding pipelines, most recently used first, and where each one is.
    std::list<std::size_t> recent;
    std::map<std::size_t, std::list<std::size_t>::iterator> recent_entry;
    std::unique_ptr<KeyState> state;
    bool device_lost = false;

    Impl(const Problem& p, vulkan::Device& d, vulkan::BatchPolicy b, std::size_t most)
        : problem(p), device(d), batch(b), max_prepared(std::max<std::size_t>(most, 1)) {}

    /// Marks `candidate` as the most recently used, freeing the pipelines and job of the least
    /// recently used candidates beyond max_prepared (never `candidate` itself).
    void use(std::size_t candidate) {
        if (const auto found = recent_entry.find(candidate); found != recent_entry.end()) {
            recent.splice(recent.begin(), recent, found->second);
            return;
        }
        recent.push_front(candidate);
        recent_entry[candidate] = recent.begin();
        while (recent.size() > max_prepared) {
            release(recent.back());
            recent_entry.erase(recent.back());
            recent.pop_back();
        }
    }

    /// Frees what `candidate` holds: its job first, since the job refers to the pipelines.
    void release(std::size_t candidate) {
        if (state) {
            state->jobs.erase(candidate);
        }
        const auto first = pipelines.lower_bound(
            std::make_tuple(candidate, std::size_t{0}, std::uint64_t{0}, std::string()));
        auto last = first;
        while (last != pipelines.end() && std::get<0>(last->first) == candidate) {
            ++last;
        }
        pipelines.erase(first, last);
    }

    vulkan::ComputePipeline& pipeline_for(std::size_t candidate, const ResolvedDispatch& dispatch) {
        auto slot = std::make_tuple(candidate, dispatch.step, dispatch.module->content_hash(),
                                    specialization_signature(dispatch.specializations));
        auto& pipeline = pipelines[slot];
        if (!pipeline) {
            pipeline = std::make_unique<vulkan::ComputePipeline>(
                device, *dispatch.module, dispatch.entry, dispatch.specializations);
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
            std::vector<vulkan::Dispatch> dispatches;
            for (const ResolvedDispatch& dispatch : resolved.dispatches) {
                std::vector<vulkan::BufferBinding> bindings;
                for (const ResolvedBinding& binding : dispatch.bindings) {
                    bindings.push_back(
                        {binding.set, binding.binding, key_state.buffers[binding.buffer].get()});
                }
                dispatches.push_back({&pipeline_for(resolved.candidate, dispatch),
                                      std::move(bindings), dispatch.push_constants,
                                      dispatch.workgroup_counts});
            }
            job = std::make_unique<vulkan::ComputeJob>(device, std::move(dispatches));
        }
        return *job;
    }

    /// Inouts and scratch buffers to their initial contents and, with `poison_outputs`, outputs
    /// to the poison pattern (so a run that leaves elements unwritten is caught).
    void reset_buffers(KeyState& key_state, const KeyPlan& plan, bool poison_outputs) {
        for (std::size_t i = 0; i < plan.buffers.size(); ++i) {
            const BufferRole role = plan.buffers[i].role;
            if (role == BufferRole::output && poison_outputs) {
                const std::vector<std::byte> poison(plan.buffers[i].bytes, poison_byte);
                key_state.buffers[i]->upload(poison);
            } else if (role == BufferRole::inout || role == BufferRole::scratch) {
                key_state.buffers[i]->upload(key_state.initial[i]);
            }
        }
    }
};

DeviceExecutor::DeviceExecutor(const Problem& problem, vulkan::Device& device,
                               vulkan::BatchPolicy batch, std::size_t max_prepared)
    : impl_(std::make_unique<Impl>(problem, device, batch, max_prepared)) {}

DeviceExecutor::~DeviceExecutor() = default;

tune::Result<CandidateOutputs> DeviceExecutor::run(const ResolvedCandidate& candidate,
                                                   const KeyPlan& plan) {
    std::lock_guard lock(impl_->mutex);
    return engine_errors_as_results(impl_->device_lost, [&]() -> tune::Result<CandidateOutputs> {
        KeyState& state = impl_->state_for(plan);
        impl_->use(candidate.candidate);
        vulkan::ComputeJob& job = impl_->job_for(state, candidate);
        impl_->reset_buffers(state, plan, /*poison_outputs=*/true);
        job.run();
        CandidateOutputs outputs;
        for (const Comparison& comparison : impl_->problem.reference.compare) {
            outputs.buffers.push_back(state.buffers[comparison.buffer]->download());
        }
        return outputs;
    });
}

tune::Result<tune::Sample> DeviceExecutor::measure(const ResolvedCandidate& candidate,
                                                   const KeyPlan& plan, std::uint32_t runs) {
    std::lock_guard lock(impl_->mutex);
    return engine_errors_as_results(impl_->device_lost, [&]() -> tune::Result<tune::Sample> {
        KeyState& state = impl_->state_for(plan);
        impl_->use(candidate.candidate);
        vulkan::ComputeJob& job = impl_->job_for(state, candidate);
        // Every sample starts from the same data, so values that drift over repeated runs
        // (growing sums, denormals) cannot make one candidate's samples slower. Outputs are only
        // written, so what they hold cannot change a run's time: poisoning them again for every
        // sample would only add a host write of every output (a staging copy on a discrete GPU)
        // to each sample's cost.
        impl_->reset_buffers(state, plan, /*poison_outputs=*/false);
        if (runs != own_batch) {
            return to_sample(job.time(runs));
        }
        auto timer = state.timers.try_emplace(candidate.candidate, impl_->batch).first;
        return to_sample(timer->second.sample(job));
    });
}

tune::Status DeviceExecutor::prepare(const ResolvedCandidate& candidate) {
    std::lock_guard lock(impl_->mutex);
    return engine_errors_as_results(impl_->device_lost, [&]() -> tune::Status {
        impl_->use(candidate.candidate);
        for (const ResolvedDispatch& dispatch : candidate.dispatches) {
            impl_->pipeline_for(candidate.candidate, dispatch);
        }
        return tune::ok();
    });
}

std::size_t DeviceExecutor::prepared_candidates() const {
    std::lock_guard lock(impl_->mutex);
    return impl_->recent.size();
}

bool DeviceExecutor::device_lost() const {
    std::lock_guard lock(impl_->mutex);
    return impl_->device_lost;
}

}  // namespace spvtune::problem
