#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

#include <spvtune/run/device_bridge.hpp>
#include <spvtune/run/device_executor.hpp>
#include <spvtune/run/device_limits.hpp>
#include <spvtune/run/kept_pipeline_cache.hpp>
#include <spvtune/run/problem_tuning.hpp>
#include <spvtune/tune/anchor.hpp>
#include <spvtune/tune/key.hpp>
#include <spvtune/tune/local_tuner.hpp>

namespace spvtune::run {
namespace {

template <class T>
std::optional<T> either(std::optional<T> first, std::optional<T> second) {
    return first ? first : second;
}

}  // namespace

tune::SamplingSettings sampling_settings(const problem::Settings& file,
                                         const problem::Settings& overrides) {
    tune::SamplingSettings settings;
    const auto mode = either(overrides.mode, file.mode);
    if (mode == problem::SamplingMode::fixed) {
        settings.mode = tune::SamplingMode::fixed;
    }
    if (const auto warmup = either(overrides.warmup, file.warmup)) {
        settings.warmup_runs = *warmup;
    }
    if (const auto samples = either(overrides.samples, file.samples)) {
        settings.max_samples = *samples;
        settings.min_samples = std::min(settings.min_samples, settings.max_samples);
    }
    if (const auto min_samples = either(overrides.min_samples, file.min_samples)) {
        settings.min_samples = std::min<std::size_t>(*min_samples, settings.max_samples);
    }
    if (const auto samples =
            either(overrides.samples_per_submission, file.samples_per_submission)) {
        settings.samples_per_submission = *samples;
    }
    if (const auto budget = either(overrides.time_budget_s, file.time_budget_s)) {
        // Kept in whole milliseconds: rounded up, so a budget > 0 never becomes 0 ms.
        settings.time_budget =
            std::chrono::milliseconds(static_cast<std::int64_t>(std::ceil(*budget * 1000)));
    }
    if (const auto percent = either(overrides.indifference_percent, file.indifference_percent)) {
        settings.indifference = *percent / 100;
    }
    if (const auto cap = either(overrides.candidate_budget_s, file.candidate_budget_s)) {
        settings.candidate_budget =
            std::chrono::milliseconds(static_cast<std::int64_t>(std::ceil(*cap * 1000)));
    }
    return settings;
}

tune::SearchSettings search_settings(const problem::Settings& file,
                                     const problem::Settings& overrides) {
    tune::SearchSettings settings;
    settings.strategy = either(overrides.search, file.search);
    if (const auto budget = either(overrides.search_budget_s, file.search_budget_s)) {
        // Whole milliseconds, rounded up as the sampling budget is.
        settings.budget =
            std::chrono::milliseconds(static_cast<std::int64_t>(std::ceil(*budget * 1000)));
    }
    if (const auto most = either(overrides.max_candidates, file.max_candidates)) {
        settings.max_candidates = *most;
    }
    if (const auto seed = either(overrides.seed, file.seed)) {
        settings.seed = *seed;
    }
    if (const auto patience = either(overrides.patience, file.patience)) {
        settings.patience = *patience;
    }
    return settings;
}

vulkan::BatchPolicy batch_policy(const problem::Settings& file,
                                 const problem::Settings& overrides) {
    vulkan::BatchPolicy policy;
    if (const auto window = either(overrides.min_sample_ms, file.min_sample_ms)) {
        policy.min_window = std::chrono::nanoseconds(static_cast<std::int64_t>(*window * 1e6));
    }
    return policy;
}

struct ProblemTuning::Impl {
    const problem::Problem& problem;
    const vulkan::PhysicalDeviceInfo& device;
    TuningOptions options;
    DeviceLimits limits;
    DeviceClient client;
    std::unique_ptr<KeptPipelineCache> kept_cache;      ///< in process, with a pipeline cache
    std::unique_ptr<CandidateExecutor> owned_executor;  ///< null with a borrowed executor
    CandidateExecutor& executor;
    ProblemRunner runner;
    tune::LocalTuner<problem::ProblemKey, std::uint32_t> tuner;
    std::shared_ptr<const ProblemTunableSet> set;

    Impl(const problem::Problem& p, const vulkan::PhysicalDeviceInfo& d,
         std::unique_ptr<KeptPipelineCache> kept, std::unique_ptr<CandidateExecutor> owned,
         CandidateExecutor& executor, TuningOptions o)
        : problem(p),
          device(d),
          options(std::move(o)),
          limits(DeviceLimits::from(d)),
          client(d),
          kept_cache(std::move(kept)),
          owned_executor(std::move(owned)),
          executor(executor),
          runner(p, executor),
          tuner(p.name, checked(options)) {
        runner.dump_outputs(options.dump);
        set = tuner.init(device.index, [this] { return runner.make_set(); });
    }

    static tune::TunerOptions checked(const TuningOptions& tuning) {
        tune::TunerOptions options = tuning.tuner;
        options.checks = true;  // a wrong candidate must never win
        // A tool's report shows every candidate's time, also when only one can run.
        options.measure_lone_candidate = true;
        // Both shape the numbers and the keys, so the cache records them with each entry.
        options.recorded_settings["min_sample_ms"] =
            static_cast<double>(tuning.batch.min_window.count()) / 1e6;
        options.recorded_settings["autotune_level"] = std::string(tune::to_string(tuning.level));
        return options;
    }
};

ProblemTuning::ProblemTuning(const problem::Problem& problem, vulkan::Device& device,
                             TuningOptions options) {
    std::unique_ptr<KeptPipelineCache> kept;
    if (!options.pipeline_cache.empty()) {
        kept = std::make_unique<KeptPipelineCache>(device, options.pipeline_cache, options.note);
    }
    const PipelineBuilding building{kept.get(), options.build_threads
                                                    ? *options.build_threads
                                                    : default_build_threads(device.info())};
    auto executor = std::make_unique<DeviceExecutor>(problem, device, options.batch,
                                                     default_max_prepared_candidates, building);
    CandidateExecutor& used = *executor;
    impl_ = std::make_unique<Impl>(problem, device.info(), std::move(kept), std::move(executor),
                                   used, std::move(options));
}

ProblemTuning::ProblemTuning(const problem::Problem& problem,
                             const vulkan::PhysicalDeviceInfo& device, CandidateExecutor& executor,
                             TuningOptions options)
    : impl_(std::make_unique<Impl>(problem, device, nullptr, nullptr, executor,
                                   std::move(options))) {}

ProblemTuning::ProblemTuning(const problem::Problem& problem,
                             const vulkan::PhysicalDeviceInfo& device,
                             std::unique_ptr<CandidateExecutor> executor, TuningOptions options) {
    CandidateExecutor& used = *executor;
    impl_ = std::make_unique<Impl>(problem, device, nullptr, std::move(executor), used,
                                   std::move(options));
}

ProblemTuning::ProblemTuning(ProblemTuning&&) noexcept = default;
ProblemTuning& ProblemTuning::operator=(ProblemTuning&&) noexcept = default;
ProblemTuning::~ProblemTuning() = default;

const TuningOptions& ProblemTuning::options() const noexcept {
    return impl_->options;
}

std::vector<CandidateFault> ProblemTuning::faults() const {
    return impl_->executor.faults();
}

KeyReport ProblemTuning::tune(const problem::ProblemKey& exact_key) {
    const auto start = std::chrono::steady_clock::now();
    Impl& impl = *impl_;
    const KeyPlan plan = plan_key(impl.problem, exact_key, &impl.limits, impl.options.level);

    KeyReport report;
    report.key = plan.key;
    report.tuning_key = plan.tuning_key;
    report.skipped = plan.skipped;
    if (plan.reference) {
        report.reference = plan.runnable[*plan.reference].candidate;
    }
    const std::size_t earlier_faults = impl.executor.faults().size();
    auto finish = [&]() -> KeyReport {
        std::vector<CandidateFault> faults = impl.executor.faults();
        report.faults.assign(faults.begin() + static_cast<std::ptrdiff_t>(earlier_faults),
                             faults.end());
        report.samples = impl.runner.samples(exact_key);
        report.run_readings = impl.runner.run_readings(exact_key);
        report.executor_time = impl.runner.time_spent(exact_key);
        report.elapsed_s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return std::move(report);
    };
    // A shipped cache's application never measures, so it checks no output: a key no reference
    // can run still runs its cached winner or the most preferred candidate that can.
    const bool never_measures = impl.options.tuner.miss_policy == tune::MissPolicy::run_preferred ||
                                impl.options.tuner.miss_policy == tune::MissPolicy::run_nearest;
    if (plan.error && !(never_measures && plan.runs_unchecked)) {
        report.error = *plan.error;
        return finish();
    }

    tune::ExecutionInfo info;
    auto result =
        impl.tuner.execute(impl.device.index, impl.client, *impl.set, KeyInputs{&plan}, &info);
    if (info.entry) {
        report.entry = *info.entry;
        if (info.entry->reference) {
            // A reference at fault gave way to the next: this one was the truth.
            report.reference = info.entry->reference;
        }
    }
    if (!result) {
        report.error = result.error().message;
        return finish();
    }
    report.ran = info.candidate;
    switch (info.source) {
        case tune::LookupSource::tuned:
            report.status = KeyStatus::tuned;
            break;
        case tune::LookupSource::compiled:
            report.status = KeyStatus::compiled;
            break;
        case tune::LookupSource::untuned:
            report.status = KeyStatus::untuned;
            break;
        case tune::LookupSource::nearest:
            report.status = KeyStatus::untuned;
            report.nearest_key = info.nearest_key;
            break;
        default:
            report.status = KeyStatus::cached;
            break;
    }
    return finish();
}

std::string answer_source(const KeyReport& report) {
    switch (report.status) {
        case KeyStatus::tuned:
        case KeyStatus::cached:
            return "exact";
        case KeyStatus::untuned:
            return report.nearest_key ? "nearest (from " + *report.nearest_key + ")" : "default";
        case KeyStatus::compiled:
            return "compiled";
        case KeyStatus::failed:
            break;
    }
    return "failed";
}

std::string failure_status(const KeyReport& report, const tune::CandidateFailure& failure) {
    for (const CandidateFault& fault : report.faults) {
        if (fault.name == failure.name) {
            return std::string(fault_kind_name(fault.kind));
        }
    }
    return std::string(tune::failure_kind_name(failure.kind));
}

}  // namespace spvtune::run
