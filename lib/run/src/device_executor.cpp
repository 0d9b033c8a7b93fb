#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <list>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <spvtune/base/large_page_allocator.hpp>
#include <spvtune/base/name_list.hpp>
#include <spvtune/run/device_bridge.hpp>
#include <spvtune/run/device_executor.hpp>
#include <spvtune/run/device_limits.hpp>
#include <spvtune/run/kept_pipeline_cache.hpp>
#include <spvtune/run/output_check.hpp>
#include <spvtune/vulkan/buffer.hpp>
#include <spvtune/vulkan/compute_job.hpp>
#include <spvtune/vulkan/compute_pipeline.hpp>
#include <spvtune/vulkan/error.hpp>
#include <spvtune/vulkan/host_data.hpp>

#include "guarded_buffer.hpp"
#include "identical_pipelines.hpp"
#include "input_write.hpp"
#include "pipeline_build.hpp"

namespace spvtune::run {
namespace {

/// Whether every submission starts the buffer from its initial contents: what a run leaves in an
/// inout (its results) or a scratch buffer (its leftovers) must not reach the next run, nor
/// another candidate's.
bool restored_before_each_run(problem::BufferRole role) {
    return role == problem::BufferRole::inout || role == problem::BufferRole::scratch;
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

/// Candidates built ahead beyond those kept: enough to keep the build threads busy.
std::size_t lookahead(std::size_t threads, std::size_t max_prepared) {
    return std::min(std::max<std::size_t>(4 * threads, 8), max_prepared);
}

/// The least time between two saves of the pipeline cache when keys change.
constexpr std::chrono::seconds save_interval{5};

/// How `entry` uses (set, binding), or null when it does not.
const vulkan::DescriptorBinding* used_binding(const vulkan::ComputeEntryPoint& entry,
                                              std::uint32_t set, std::uint32_t binding) {
    const auto it = std::find_if(
        entry.bindings.begin(), entry.bindings.end(),
        [&](const vulkan::DescriptorBinding& b) { return b.set == set && b.binding == binding; });
    return it == entry.bindings.end() ? nullptr : &*it;
}

/// The buffers and jobs of the key being worked on; replaced when another key comes.
struct KeyState {
    problem::ProblemKey key;
    std::vector<std::unique_ptr<detail::GuardedBuffer>> buffers;  ///< Problem::buffers order
    std::vector<base::LargeBytes> initial;                        ///< initial contents, same order
    /// The initial contents of each inout and scratch buffer in device memory of their own, which
    /// every job copies back at the start of its submissions; null for other roles, and where no
    /// copy could be kept (reset_buffers then uploads them from the host).
    std::vector<std::unique_ptr<vulkan::Buffer>> first;
    std::map<std::size_t, std::unique_ptr<vulkan::ComputeJob>> jobs;
    std::map<std::size_t, vulkan::BatchedTimer> timers;
    /// Candidates whose runs for this key were looked at for writes they must not make: by a
    /// checked run, or after their first timed runs (a search times some it never checks).
    std::set<std::size_t> watched;
};

}  // namespace

struct DeviceExecutor::Impl {
    const problem::Problem& problem;
    vulkan::Device& device;
    vulkan::BatchPolicy batch;
    std::size_t max_prepared;
    KeptPipelineCache* kept;
    /// The largest device-local heap: a key's copies of initial contents take at most half.
    std::uint64_t device_memory;
    VkPipelineCache cache;

    mutable std::mutex mutex;
    /// By candidate, then slot (step, module, specializations).
    std::map<std::size_t, detail::PipelinesBySlot> pipelines;
    /// Every pipeline above, found by what it compiles: identical candidates share one.
    detail::IdenticalPipelines identical;
    /// The candidates holding pipelines, most recently used first, and where each one is.
    std::list<std::size_t> recent;
    std::map<std::size_t, std::list<std::size_t>::iterator> recent_entry;
    std::unique_ptr<KeyState> state;
    /// Pipelines dispatched once already (ComputeJob::warm_up), so compiled by any driver.
    std::set<const vulkan::ComputePipeline*> warmed;
    /// The reference last judged by identical_outputs_match, and its answer: every checked run
    /// of a key is judged against one reference, which is scanned once.
    std::shared_ptr<const CandidateOutputs> judged_reference;
    bool judged_reference_matches = false;
    bool device_lost = false;
    /// Pipelines created, here and on the build threads.
    std::atomic<std::size_t> built{0};
    double build_seconds = 0;
    std::chrono::steady_clock::time_point saved = std::chrono::steady_clock::now();
    /// Last: its threads stop before anything they use goes.
    std::unique_ptr<detail::PipelineBuilder> builder;

    Impl(const problem::Problem& p, vulkan::Device& d, vulkan::BatchPolicy b, std::size_t most,
         PipelineBuilding building)
        : problem(p),
          device(d),
          batch(b),
          max_prepared(std::max<std::size_t>(most, 1)),
          kept(building.cache),
          device_memory(largest_device_local_heap(d.info())),
          cache(kept != nullptr ? kept->cache().handle() : VK_NULL_HANDLE) {
        if (building.threads > 0) {
            builder = std::make_unique<detail::PipelineBuilder>(
                [this](const problem::ResolvedCandidate& candidate) {
                    return detail::build_pipelines(device, cache, candidate, built);
                },
                building.threads, lookahead(building.threads, max_prepared));
        }
    }

    ~Impl() {
        builder.reset();  // its threads use the cache
        if (kept != nullptr) {
            kept->save();
        }
    }
    Impl(const Impl&) = delete;
    Impl& operator=(const Impl&) = delete;

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
        if (const auto held = pipelines.find(candidate); held != pipelines.end()) {
            // A pipeline another candidate shares lives on, warmed; one that ends here must not
            // be found warmed should a new one take its address.
            std::vector<
                std::pair<std::weak_ptr<vulkan::ComputePipeline>, const vulkan::ComputePipeline*>>
                ending;
            for (const auto& [slot, pipeline] : held->second) {
                ending.emplace_back(pipeline, pipeline.get());
            }
            pipelines.erase(held);
            for (const auto& [pipeline, address] : ending) {
                if (pipeline.expired()) {
                    warmed.erase(address);
                }
            }
        }
    }

    /// The candidate's pipelines: those of an identical candidate, else those built ahead, else
    /// built now. A build error is the call's error. The time spent here is what measurement
    /// waited for builds.
    detail::PipelinesBySlot& pipelines_of(const problem::ResolvedCandidate& candidate) {
        auto& held = pipelines[candidate.candidate];
        for (const problem::ResolvedDispatch& dispatch : candidate.dispatches) {
            const detail::PipelineSlot slot = detail::pipeline_slot(dispatch);
            if (!held.contains(slot)) {
                if (auto same = identical.find(dispatch)) {
                    held.emplace(slot, std::move(same));
                }
            }
        }
        const bool complete = std::all_of(candidate.dispatches.begin(), candidate.dispatches.end(),
                                          [&](const problem::ResolvedDispatch& d) {
                                              return held.contains(detail::pipeline_slot(d));
                                          });
        if (complete) {
            return held;
        }
        const auto start = std::chrono::steady_clock::now();
        std::optional<detail::CandidatePipelines> ahead;
        if (builder) {
            ahead = builder->take(candidate.candidate);
        }
        if (!ahead) {
            ahead = detail::build_pipelines(device, cache, candidate, built, held);
        }
        build_seconds +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (ahead->error) {
            std::rethrow_exception(ahead->error);
        }
        for (auto& [slot, pipeline] : ahead->pipelines) {
            held.try_emplace(slot, std::move(pipeline));
        }
        for (const problem::ResolvedDispatch& dispatch : candidate.dispatches) {
            identical.remember(dispatch, held.at(detail::pipeline_slot(dispatch)));
        }
        return held;
    }

    KeyState& state_for(const KeyPlan& plan) {
        if (state && state->key == plan.key) {
            return *state;
        }
        state.reset();  // free the previous key's memory before allocating this one's
        save_now_and_then();
        auto next = std::make_unique<KeyState>();
        next->key = plan.key;
        for (const problem::ResolvedBuffer& buffer : plan.buffers) {
            // The fill covers the logical elements; the padding after them stays zero.
            base::LargeBytes& initial =
                next->initial.emplace_back(static_cast<std::size_t>(buffer.bytes));
            const auto filled = static_cast<std::size_t>(buffer.count - buffer.padding) *
                                vulkan::element_size(buffer.type);
            vulkan::fill_into(std::span(initial).first(filled), buffer.type, buffer.fill);
            next->buffers.push_back(std::make_unique<detail::GuardedBuffer>(device, buffer));
            next->buffers.back()->upload(next->initial.back());
        }
        // After every buffer of the key, and only while the key's buffers and copies together
        // fill at most half the device's memory: the copies must not take the room the
        // pipelines and every other allocation of the key still need.
        std::uint64_t room = device_memory / 2;
        for (const problem::ResolvedBuffer& buffer : plan.buffers) {
            room -= std::min(room, buffer.bytes);
        }
        for (std::size_t i = 0; i < plan.buffers.size(); ++i) {
            const bool fits = plan.buffers[i].bytes <= room;
            next->first.push_back(fits ? first_contents(plan.buffers[i], next->initial[i])
                                       : nullptr);
            if (next->first.back()) {
                room -= plan.buffers[i].bytes;
            }
        }
        state = std::move(next);
        return *state;
    }

    /// A device copy of the initial contents of an inout or scratch buffer, from which a job
    /// restores it without a host upload (on a discrete GPU, a staging buffer and a submission of
    /// its own every time); null for other roles, or when the copy cannot be made (the host then
    /// resets the buffer, as it did before there were copies).
    std::unique_ptr<vulkan::Buffer> first_contents(const problem::ResolvedBuffer& buffer,
                                                   std::span<const std::byte> initial) {
        if (!restored_before_each_run(buffer.role)) {
            return nullptr;
        }
        try {
            auto first = std::make_unique<vulkan::Buffer>(device, initial.size());
            first->upload(initial);
            return first;
        } catch (const vulkan::DeviceLostError&) {
            throw;
        } catch (const vulkan::Error&) {
            return nullptr;
        }
    }

    vulkan::ComputeJob& job_for(KeyState& key_state, const problem::ResolvedCandidate& resolved) {
        auto& job = key_state.jobs[resolved.candidate];
        if (!job) {
            std::vector<vulkan::Dispatch> dispatches;
            for (const problem::ResolvedDispatch& dispatch : resolved.dispatches) {
                const vulkan::ComputePipeline* pipeline =
                    pipelines_of(resolved).at(detail::pipeline_slot(dispatch)).get();
                std::vector<vulkan::BufferBinding> bindings;
                for (const problem::ResolvedBinding& binding : dispatch.bindings) {
                    bindings.push_back(key_state.buffers[binding.buffer]->binding(
                        binding.set, binding.binding,
                        used_binding(pipeline->entry_point(), binding.set, binding.binding)));
                }
                dispatches.push_back({pipeline, std::move(bindings), dispatch.push_constants,
                                      dispatch.workgroup_counts});
            }
            std::vector<vulkan::BufferCopy> restores;
            for (std::size_t i = 0; i < key_state.buffers.size(); ++i) {
                if (key_state.first[i]) {
                    restores.push_back(key_state.buffers[i]->restore_from(*key_state.first[i]));
                }
            }
            job = std::make_unique<vulkan::ComputeJob>(device, std::move(dispatches),
                                                       std::move(restores));
            warm_up(*job, resolved);
        }
        return *job;
    }

    /// The candidate's job for the key, its buffers ready for a sample. Every sample starts from
    /// the same data, so values that drift over repeated runs (growing sums, denormals) cannot
    /// make one candidate's samples slower. Outputs are only written, so what they hold cannot
    /// change a run's time: poisoning them again for every sample would only add a host write of
    /// every output (a staging copy on a discrete GPU) to each sample's cost.
    vulkan::ComputeJob& job_to_measure(KeyState& key_state, const KeyPlan& plan,
                                       const problem::ResolvedCandidate& resolved) {
        use(resolved.candidate);
        vulkan::ComputeJob& job = job_for(key_state, resolved);
        reset_buffers(key_state, plan, /*poison_outputs=*/false);
        return job;
    }

    /// Dispatches a new job's pipelines once with no workgroups unless they have been: a driver
    /// that compiles a pipeline at its first dispatch does so here, counted as build time, and
    /// not in the first checked run (whose time, and deadline in a worker, are a kernel's).
    void warm_up(vulkan::ComputeJob& job, const problem::ResolvedCandidate& resolved) {
        std::vector<const vulkan::ComputePipeline*> fresh;
        for (const auto& [slot, pipeline] : pipelines.at(resolved.candidate)) {
            if (!warmed.contains(pipeline.get())) {
                fresh.push_back(pipeline.get());
            }
        }
        if (fresh.empty()) {
            return;
        }
        const auto start = std::chrono::steady_clock::now();
        job.warm_up();
        build_seconds +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        warmed.insert(fresh.begin(), fresh.end());
    }

    /// Keeps the pipelines built so far on disk, should this process not end normally (a
    /// worker killed for a hung kernel); at most every save_interval, since saving costs.
    void save_now_and_then() {
        const auto now = std::chrono::steady_clock::now();
        if (kept != nullptr && now - saved >= save_interval) {
            kept->save();
            saved = now;
        }
    }

    /// Inouts and scratch buffers that no job restores (no copy of their initial contents could
    /// be kept on the device) to those contents, once for the whole measurement or run that
    /// follows (the runs a measurement calibrates its batch with then run on from one another)
    /// and, with `poison_outputs`, outputs to the poison pattern (so a run that leaves elements
    /// unwritten is caught).
    void reset_buffers(KeyState& key_state, const KeyPlan& plan, bool poison_outputs) {
        for (std::size_t i = 0; i < plan.buffers.size(); ++i) {
            const problem::BufferRole role = plan.buffers[i].role;
            if (role == problem::BufferRole::output && poison_outputs) {
                key_state.buffers[i]->fill(poison_byte);
            } else if (restored_before_each_run(role) && !key_state.first[i]) {
                key_state.buffers[i]->upload(key_state.initial[i]);
            }
        }
    }

    /// Whether the compared buffers hold `reference`'s bytes over their checked ranges, read
    /// where they lie, and bytes equal to the reference's match it. Outside those ranges
    /// keep_checked_range zeroes a candidate's bytes as it did the reference's; a reference not
    /// zero there (not made that way) is never matched in place. Only where the buffers are
    /// host-visible: elsewhere a look in place is a download, and a mismatch would then take two.
    bool holds_reference(const KeyState& key_state, const KeyPlan& plan,
                         const std::shared_ptr<const CandidateOutputs>& reference) {
        const auto& comparisons = problem.reference.compare;
        if (reference != judged_reference) {
            judged_reference = reference;
            judged_reference_matches = reference->buffers.size() == comparisons.size() &&
                                       identical_outputs_match(problem, *reference);
            for (std::size_t i = 0; i < comparisons.size() && judged_reference_matches; ++i) {
                const base::LargeBytes& bytes = reference->buffers[i];
                const auto [begin, end] =
                    checked_bytes(plan.buffers.at(comparisons[i].buffer), bytes.size());
                const auto zero = [](std::byte b) { return b == std::byte{0}; };
                judged_reference_matches =
                    std::all_of(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(begin),
                                zero) &&
                    std::all_of(bytes.begin() + static_cast<std::ptrdiff_t>(end), bytes.end(),
                                zero);
            }
        }
        if (!judged_reference_matches) {
            return false;
        }
        for (std::size_t i = 0; i < comparisons.size(); ++i) {
            const detail::GuardedBuffer& held = *key_state.buffers.at(comparisons[i].buffer);
            const std::span<const std::byte> bytes = reference->buffers[i];
            if (!held.host_visible() || bytes.size() != held.size()) {
                return false;
            }
            const auto [begin, end] =
                checked_bytes(plan.buffers.at(comparisons[i].buffer), bytes.size());
            if (!held.holds(bytes.subspan(begin, end - begin), begin)) {
                return false;
            }
        }
        return true;
    }

    /// After the timed runs of a candidate that no run() looked at for this key: what they
    /// wrote where they must not, as the error, undone so that the next candidate is not blamed.
    tune::Status watch_unchecked(KeyState& key_state, const KeyPlan& plan, std::size_t candidate) {
        if (!key_state.watched.insert(candidate).second) {
            return tune::ok();
        }
        if (const std::vector<std::string> found = find_violations(key_state, plan);
            !found.empty()) {
            return tune::fail(base::join(found, "; "));
        }
        return tune::ok();
    }

    /// What the run just done wrote where it must not: into an input (restored, so the next
    /// candidate reads the inputs every candidate was given) or into a guard zone (restored too).
    std::vector<std::string> find_violations(KeyState& key_state, const KeyPlan& plan) {
        std::vector<std::string> found;
        for (std::size_t i = 0; i < plan.buffers.size(); ++i) {
            const problem::ResolvedBuffer& buffer = plan.buffers[i];
            // An input left as it was, the usual case, is compared in place, not read back.
            if (buffer.role == problem::BufferRole::input &&
                !key_state.buffers[i]->holds(key_state.initial[i])) {
                if (auto changed = detail::describe_input_write(buffer, key_state.initial[i],
                                                                key_state.buffers[i]->download())) {
                    found.push_back(std::move(*changed));
                    key_state.buffers[i]->upload(key_state.initial[i]);
                }
            }
            if (auto overrun = key_state.buffers[i]->check_guards(buffer)) {
                found.push_back(std::move(*overrun));
            }
        }
        return found;
    }
};

DeviceExecutor::DeviceExecutor(const problem::Problem& problem, vulkan::Device& device,
                               vulkan::BatchPolicy batch, std::size_t max_prepared,
                               PipelineBuilding building)
    : impl_(std::make_unique<Impl>(problem, device, batch, max_prepared, building)) {}

DeviceExecutor::~DeviceExecutor() = default;

tune::Result<CandidateOutputs> DeviceExecutor::run(const problem::ResolvedCandidate& candidate,
                                                   const KeyPlan& plan) {
    return run_checked(candidate, plan, nullptr);
}

tune::Result<CandidateOutputs> DeviceExecutor::run_checked(
    const problem::ResolvedCandidate& candidate, const KeyPlan& plan,
    const std::shared_ptr<const CandidateOutputs>& reference) {
    std::lock_guard lock(impl_->mutex);
    return engine_errors_as_results(impl_->device_lost, [&]() -> tune::Result<CandidateOutputs> {
        KeyState& state = impl_->state_for(plan);
        impl_->use(candidate.candidate);
        vulkan::ComputeJob& job = impl_->job_for(state, candidate);
        impl_->reset_buffers(state, plan, /*poison_outputs=*/true);
        CandidateOutputs outputs;
        // A time below the timestamps' resolution reads as 0: no reading, not a free kernel.
        if (const tune::Sample reading = to_sample(job.time(1)); reading.ns_per_run > 0) {
            outputs.reading = reading;
        }
        // Outputs that hold the reference's bytes need not be read back (on lavapipe, a copy of
        // 4 MiB took 0.9 ms of a checked run's 3 ms beyond its kernel).
        const bool as_reference = reference && impl_->holds_reference(state, plan, reference);
        if (!as_reference) {
            for (const problem::Comparison& comparison : impl_->problem.reference.compare) {
                outputs.buffers.push_back(state.buffers[comparison.buffer]->download());
            }
        }
        // After the outputs are read: a write into an input is undone here.
        outputs.violations = impl_->find_violations(state, plan);
        state.watched.insert(candidate.candidate);
        if (as_reference && outputs.violations.empty()) {
            outputs.verdict = CandidateOutputs::Verdict{reference, std::nullopt};
            return outputs;
        }
        if (as_reference) {
            outputs.buffers = reference->buffers;  // what they held, for the violations' report
            return outputs;
        }
        // Here, where every run's outputs are made, so that in process and in a worker alike the
        // checks, the key's truth and the dumps see the same elements.
        keep_checked_range(impl_->problem, plan.buffers, outputs);
        return outputs;
    });
}

tune::Status DeviceExecutor::warm_up(const problem::ResolvedCandidate& candidate,
                                     const KeyPlan& plan) {
    std::lock_guard lock(impl_->mutex);
    return engine_errors_as_results(impl_->device_lost, [&]() -> tune::Status {
        KeyState& state = impl_->state_for(plan);
        impl_->use(candidate.candidate);
        impl_->job_for(state, candidate);
        return tune::ok();
    });
}

tune::Result<tune::Sample> DeviceExecutor::measure(const problem::ResolvedCandidate& candidate,
                                                   const KeyPlan& plan, std::uint32_t runs) {
    std::lock_guard lock(impl_->mutex);
    return engine_errors_as_results(impl_->device_lost, [&]() -> tune::Result<tune::Sample> {
        KeyState& state = impl_->state_for(plan);
        vulkan::ComputeJob& job = impl_->job_to_measure(state, plan, candidate);
        tune::Sample sample;
        if (runs != own_batch) {
            sample = to_sample(job.time(runs));
        } else {
            auto timer = state.timers.try_emplace(candidate.candidate, impl_->batch).first;
            sample = to_sample(timer->second.sample(job));
        }
        if (auto watched = impl_->watch_unchecked(state, plan, candidate.candidate); !watched) {
            return tune::fail(watched.error());
        }
        return sample;
    });
}

// The race's limit on a round and the engine's on a submission are the same number.
static_assert(tune::max_samples_per_submission == vulkan::ComputeJob::max_samples_per_submission);

tune::Result<std::vector<tune::Sample>> DeviceExecutor::measure_samples(
    const problem::ResolvedCandidate& candidate, const KeyPlan& plan, std::uint32_t runs,
    std::uint32_t samples) {
    std::lock_guard lock(impl_->mutex);
    return engine_errors_as_results(
        impl_->device_lost, [&]() -> tune::Result<std::vector<tune::Sample>> {
            KeyState& state = impl_->state_for(plan);
            vulkan::ComputeJob& job = impl_->job_to_measure(state, plan, candidate);
            std::vector<tune::Sample> taken;
            for (const vulkan::DispatchTiming& timing : job.time_samples(runs, samples)) {
                taken.push_back(to_sample(timing));
            }
            if (auto watched = impl_->watch_unchecked(state, plan, candidate.candidate); !watched) {
                return tune::fail(watched.error());
            }
            return taken;
        });
}

tune::Status DeviceExecutor::prepare(const problem::ResolvedCandidate& candidate) {
    std::lock_guard lock(impl_->mutex);
    return engine_errors_as_results(impl_->device_lost, [&]() -> tune::Status {
        impl_->use(candidate.candidate);
        impl_->pipelines_of(candidate);
        return tune::ok();
    });
}

void DeviceExecutor::prefetch(const KeyPlan& plan, std::span<const std::size_t> candidates) {
    if (!impl_->builder) {
        return;
    }
    std::map<std::size_t, const problem::ResolvedCandidate*> runnable;
    for (const problem::ResolvedCandidate& resolved : plan.runnable) {
        runnable.emplace(resolved.candidate, &resolved);
    }
    std::vector<std::pair<std::size_t, problem::ResolvedCandidate>> coming;
    // What the candidates announced so far compile: one identical to them is left to share their
    // pipelines (a collision of hashes only leaves a candidate to be built when it is used).
    std::set<detail::IdenticalPipelines::Identity> announced;
    {
        std::lock_guard lock(impl_->mutex);
        for (const std::size_t candidate : candidates) {
            const auto found = runnable.find(candidate);
            // Not runnable for the key, or built already.
            if (found == runnable.end() || impl_->recent_entry.contains(candidate)) {
                continue;
            }
            const auto& dispatches = found->second->dispatches;
            const bool shares = std::all_of(
                dispatches.begin(), dispatches.end(), [&](const problem::ResolvedDispatch& d) {
                    return announced.contains(detail::IdenticalPipelines::identity(d)) ||
                           impl_->identical.find(d) != nullptr;
                });
            if (shares) {
                continue;
            }
            for (const problem::ResolvedDispatch& dispatch : dispatches) {
                announced.insert(detail::IdenticalPipelines::identity(dispatch));
            }
            coming.emplace_back(candidate, *found->second);
        }
    }
    impl_->builder->announce(std::move(coming));
}

double DeviceExecutor::pipeline_build_seconds() const {
    std::lock_guard lock(impl_->mutex);
    return impl_->build_seconds;
}

std::size_t DeviceExecutor::built_ahead() const {
    return impl_->builder ? impl_->builder->held() : 0;
}

std::size_t DeviceExecutor::pipelines_built() const {
    return impl_->built;
}

std::size_t default_build_threads(const vulkan::PhysicalDeviceInfo& device) {
    if (const char* text = std::getenv("SPVTUNE_BUILD_THREADS"); text != nullptr && *text != 0) {
        char* end = nullptr;
        const unsigned long value = std::strtoul(text, &end, 10);
        if (*end == 0 && value <= 64) {
            return value;
        }
    }
    if (device.identity.device_type == VK_PHYSICAL_DEVICE_TYPE_CPU) {
        return 0;
    }
    return std::min<std::size_t>(2, std::max(1U, std::thread::hardware_concurrency()));
}

std::size_t DeviceExecutor::prepared_candidates() const {
    std::lock_guard lock(impl_->mutex);
    return impl_->recent.size();
}

bool DeviceExecutor::device_lost() const {
    std::lock_guard lock(impl_->mutex);
    return impl_->device_lost;
}

}  // namespace spvtune::run
