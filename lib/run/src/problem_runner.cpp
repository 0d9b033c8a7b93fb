#include <algorithm>
#include <chrono>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <unordered_map>
#include <utility>

#include <spvtune/base/digest.hpp>
#include <spvtune/problem/resolve.hpp>
#include <spvtune/run/problem_runner.hpp>

namespace spvtune::run {
namespace {

const problem::ResolvedCandidate* find_runnable(const KeyPlan& plan, std::size_t candidate) {
    for (const problem::ResolvedCandidate& resolved : plan.runnable) {
        if (resolved.candidate == candidate) {
            return &resolved;
        }
    }
    return nullptr;
}

}  // namespace

struct ProblemRunner::Impl {
    const problem::Problem& problem;
    CandidateExecutor& executor;
    OutputDump* dump = nullptr;

    mutable std::mutex mutex;
    /// Per tuning key, each candidate's priority (negative: skipped), from the latest plan.
    std::unordered_map<problem::ProblemKey, std::vector<int>> priorities;
    using SamplesByCandidate = std::vector<std::vector<tune::Sample>>;
    using SamplesByKey = std::unordered_map<problem::ProblemKey, SamplesByCandidate>;
    SamplesByKey samples;
    /// The readings of output runs, kept apart: a search checks a point between its samples.
    SamplesByKey run_readings;
    std::unordered_map<problem::ProblemKey, ExecutorTime> time_spent;
    /// Per exact key, the reference outputs the set took as the truth: the other candidates'
    /// runs are checked against them where they run.
    std::unordered_map<problem::ProblemKey, std::shared_ptr<const CandidateOutputs>> truths;
    /// The exact key of the latest run: the one a comparison that follows judges.
    std::optional<problem::ProblemKey> last_run_key;
    /// The latest run of a reference candidate, until the set takes or refuses its outputs.
    std::optional<std::pair<problem::ProblemKey, std::shared_ptr<const CandidateOutputs>>>
        reference_run;

    Impl(const problem::Problem& p, CandidateExecutor& e) : problem(p), executor(e) {}

    void remember_plan(const KeyPlan& plan) {
        std::vector<int> list(problem.candidates.size(), -1);
        for (const problem::ResolvedCandidate& resolved : plan.runnable) {
            list[resolved.candidate] = static_cast<int>(
                std::clamp<std::int64_t>(resolved.priority, 0, std::numeric_limits<int>::max()));
        }
        std::lock_guard lock(mutex);
        priorities.insert_or_assign(plan.tuning_key, std::move(list));
    }

    int priority(std::size_t candidate, const problem::ProblemKey& tuning_key) const {
        std::lock_guard lock(mutex);
        const auto found = priorities.find(tuning_key);
        return found == priorities.end() ? 0 : found->second[candidate];
    }

    bool is_reference(std::size_t candidate) const {
        const auto& references = problem.reference.candidates;
        return std::find(references.begin(), references.end(), candidate) != references.end();
    }

    /// The truth the key's other candidates are checked against where they run; null while
    /// there is none, or when outputs are dumped (a dump needs every candidate's buffers).
    std::shared_ptr<const CandidateOutputs> truth(std::size_t candidate,
                                                  const problem::ProblemKey& key) const {
        if (dump != nullptr || is_reference(candidate)) {
            return nullptr;
        }
        std::lock_guard lock(mutex);
        const auto found = truths.find(key);
        return found == truths.end() ? nullptr : found->second;
    }

    /// Keeps a reference candidate's outputs until the set says whether they are the truth.
    void ran_reference(const problem::ProblemKey& key, const CandidateOutputs& outputs) {
        auto kept = std::make_shared<const CandidateOutputs>(outputs);
        std::lock_guard lock(mutex);
        reference_run.emplace(key, std::move(kept));
    }

    /// The set took `reference` as the truth: when it is the latest reference run, for that
    /// run's key.
    void took_reference(const CandidateOutputs& reference) {
        std::lock_guard lock(mutex);
        if (reference_run && same_outputs(*reference_run->second, reference)) {
            truths.insert_or_assign(reference_run->first, std::move(reference_run->second));
            reference_run.reset();
        }
    }

    /// Keeps what a measure returned for samples(), or an output run's reading for
    /// run_readings() (`into`).
    void record(const problem::ProblemKey& key, std::size_t candidate,
                std::span<const tune::Sample> taken, SamplesByKey Impl::*into = &Impl::samples) {
        std::lock_guard lock(mutex);
        SamplesByCandidate& kept = (this->*into)[key];
        kept.resize(problem.candidates.size());
        kept[candidate].insert(kept[candidate].end(), taken.begin(), taken.end());
    }

    /// What record() kept for `key` in `from`, per candidate (empty for those without any).
    SamplesByCandidate recorded(const problem::ProblemKey& key, SamplesByKey Impl::*from) const {
        std::lock_guard lock(mutex);
        const auto found = (this->*from).find(key);
        return found == (this->*from).end() ? SamplesByCandidate(problem.candidates.size())
                                            : found->second;
    }

    /// Runs `body` on the plan's resolved candidate, or says why the plan does not run it.
    template <class Body>
    auto runnable(const KeyPlan& plan, std::size_t candidate, Body body)
        -> decltype(body(std::declval<const problem::ResolvedCandidate&>())) {
        const problem::ResolvedCandidate* resolved = find_runnable(plan, candidate);
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
    auto timed(const problem::ProblemKey& key, double ExecutorTime::*field, Call call)
        -> decltype(call()) {
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

ProblemRunner::ProblemRunner(const problem::Problem& problem, CandidateExecutor& executor)
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
        // A shared batch is at most 64 times an executor's own, far below 2^32 runs.
        const auto runs_of = [](std::uint64_t runs) {
            const auto most = std::uint64_t{std::numeric_limits<std::uint32_t>::max()};
            return static_cast<std::uint32_t>(std::min(runs, most));
        };
        candidate.measure_batch = [this, i, runs_of](const KeyInputs& inputs, std::uint64_t runs) {
            return measure(i, *inputs.plan, runs_of(runs));
        };
        candidate.measure_samples = [this, i, runs_of](const KeyInputs& inputs, std::uint64_t runs,
                                                       std::size_t samples) {
            return measure_samples(i, *inputs.plan, runs_of(runs),
                                   static_cast<std::uint32_t>(samples));
        };
        candidate.prepare = [this, i] { return prepare(i); };
        candidate.reference_only =
            impl->problem.families[impl->problem.candidates[i].family].reference_only;
        candidate.priority = [impl, i](const problem::ProblemKey& key) {
            return impl->priority(i, key);
        };
        set.add(std::move(candidate));
        if (auto position = grid_position(impl->problem, i)) {
            set.with_grid_position(i, std::move(*position));
        }
    }
    const problem::Problem& problem = impl->problem;
    // Each key's truth is the first reference candidate its plan can run whose output is not at
    // fault; the next ones that can run it take over in turn. A plan with none is an error and
    // never reaches the check, so the fallback is only a formality.
    set.with_check(
        [impl](const CandidateOutputs& want, const CandidateOutputs& got) {
            // A check's cost is the run's and the comparison's: in a worker the comparison is
            // part of the run, so here it counts the same, with the run it judges (the last).
            std::optional<problem::ProblemKey> key;
            {
                std::lock_guard lock(impl->mutex);
                key = impl->last_run_key;
            }
            if (!key) {
                return compare_outputs(impl->problem, want, got);
            }
            return impl->timed(*key, &ExecutorTime::output_runs_s,
                               [&] { return compare_outputs(impl->problem, want, got); });
        },
        [&problem](const KeyInputs& inputs) {
            std::vector<std::size_t> references;
            for (const std::size_t candidate : problem.reference.candidates) {
                if (find_runnable(*inputs.plan, candidate) != nullptr) {
                    references.push_back(candidate);
                }
            }
            if (references.empty()) {
                references.push_back(problem.reference.candidates.front());
            }
            return references;
        });
    // A reference that left elements unwritten (it stopped early) would make every candidate
    // differ from it: blame the reference instead.
    set.with_reference_fault([impl](const CandidateOutputs& reference) {
        std::optional<std::string> fault = unwritten_by_reference(impl->problem, reference);
        if (!fault) {
            impl->took_reference(reference);
        }
        return fault;
    });
    // A reference that gives NaN or an infinity where two candidates agree on finite values is
    // the one at fault (a division by zero, an overflow), not every candidate.
    set.with_reference_witnesses(
        [&problem](const CandidateOutputs& reference, const CandidateOutputs& candidate) {
            return non_finite_in_reference(problem, reference, candidate);
        },
        [&problem](const CandidateOutputs& reference, const CandidateOutputs& first,
                   const CandidateOutputs& second) {
            return agree_where_reference_not_finite(problem, reference, first, second);
        });
    // A checked run is timed where it runs, so a race counts it as the first warm-up.
    set.with_run_reading([](const CandidateOutputs& outputs) { return outputs.reading; });
    // A candidate that fails at run time on one exact key of a bucket is avoided on that key
    // only; the bucket's other members keep running the winner.
    set.with_input_identity(
        [](const KeyInputs& inputs) { return std::hash<problem::ProblemKey>{}(inputs.plan->key); });
    // The tuner names a key's candidates when it will run them all: their pipelines are then
    // built ahead while the first ones are measured.
    set.with_prefetch([this](const KeyInputs& inputs, std::span<const std::size_t> candidates) {
        prefetch(*inputs.plan, candidates);
    });
    return set;
}

tune::Result<CandidateOutputs> ProblemRunner::run(std::size_t candidate, const KeyPlan& plan) {
    return impl_->runnable(plan, candidate, [&](const problem::ResolvedCandidate& resolved) {
        const std::shared_ptr<const CandidateOutputs> truth = impl_->truth(candidate, plan.key);
        tune::Result<CandidateOutputs> outputs =
            impl_->timed(plan.key, &ExecutorTime::output_runs_s, [&] {
                return truth ? impl_->executor.run_checked(resolved, plan, truth)
                             : impl_->executor.run(resolved, plan);
            });
        {
            std::lock_guard lock(impl_->mutex);
            impl_->last_run_key = plan.key;
        }
        if (outputs && outputs.value().reading) {
            impl_->record(plan.key, candidate, {&*outputs.value().reading, 1}, &Impl::run_readings);
        }
        if (outputs && impl_->dump != nullptr) {
            const bool reference =
                plan.reference && plan.runnable[*plan.reference].candidate == candidate;
            impl_->dump->write(impl_->problem, candidate, plan.key, reference, outputs.value());
        }
        if (outputs && impl_->is_reference(candidate)) {
            impl_->ran_reference(plan.key, outputs.value());
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
        plan, candidate,
        [&](const problem::ResolvedCandidate& resolved) -> tune::Result<tune::Sample> {
            tune::Result<tune::Sample> sample =
                impl_->timed(plan.key, &ExecutorTime::measuring_s,
                             [&] { return impl_->executor.measure(resolved, plan, runs); });
            if (sample) {
                impl_->record(plan.key, candidate, {&sample.value(), 1});
            }
            return sample;
        });
}

tune::Result<std::vector<tune::Sample>> ProblemRunner::measure_samples(std::size_t candidate,
                                                                       const KeyPlan& plan,
                                                                       std::uint32_t runs,
                                                                       std::uint32_t samples) {
    return impl_->runnable(
        plan, candidate,
        [&](const problem::ResolvedCandidate& resolved) -> tune::Result<std::vector<tune::Sample>> {
            tune::Result<std::vector<tune::Sample>> taken = impl_->timed(
                plan.key, &ExecutorTime::measuring_s,
                [&] { return impl_->executor.measure_samples(resolved, plan, runs, samples); });
            if (taken) {
                impl_->record(plan.key, candidate, taken.value());
            }
            return taken;
        });
}

void ProblemRunner::prefetch(const KeyPlan& plan, std::span<const std::size_t> candidates) {
    impl_->executor.prefetch(plan, candidates);
}

tune::Status ProblemRunner::prepare(std::size_t candidate) {
    const problem::Problem& problem = impl_->problem;
    for (const problem::KeyEntry& entry : problem.keys) {
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

std::vector<std::vector<tune::Sample>> ProblemRunner::samples(
    const problem::ProblemKey& exact_key) const {
    return impl_->recorded(exact_key, &Impl::samples);
}

std::vector<std::vector<tune::Sample>> ProblemRunner::run_readings(
    const problem::ProblemKey& exact_key) const {
    return impl_->recorded(exact_key, &Impl::run_readings);
}

ExecutorTime ProblemRunner::time_spent(const problem::ProblemKey& exact_key) const {
    std::lock_guard lock(impl_->mutex);
    const auto found = impl_->time_spent.find(exact_key);
    return found == impl_->time_spent.end() ? ExecutorTime{} : found->second;
}

}  // namespace spvtune::run
