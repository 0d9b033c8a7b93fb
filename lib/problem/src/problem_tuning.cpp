#include <chrono>

#include <spvtune/problem/device_bridge.hpp>
#include <spvtune/problem/device_limits.hpp>
#include <spvtune/problem/problem_tuning.hpp>
#include <spvtune/tune/in_memory_store.hpp>
#include <spvtune/tune/key.hpp>
#include <spvtune/tune/local_tuner.hpp>

namespace spvtune::problem {
namespace {

template <class T>
std::optional<T> either(std::optional<T> first, std::optional<T> second) {
    return first ? first : second;
}

}  // namespace

tune::SamplingSettings sampling_settings(const Settings& file, const Settings& overrides) {
    tune::SamplingSettings settings;
    const auto mode = either(overrides.mode, file.mode);
    if (mode == SamplingMode::fixed) {
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
    if (const auto budget = either(overrides.time_budget_s, file.time_budget_s)) {
        settings.time_budget = std::chrono::milliseconds(static_cast<std::int64_t>(*budget * 1000));
    }
    return settings;
}

vulkan::BatchPolicy batch_policy(const Settings& file, const Settings& overrides) {
    vulkan::BatchPolicy policy;
    if (const auto window = either(overrides.min_sample_ms, file.min_sample_ms)) {
        policy.min_window = std::chrono::nanoseconds(static_cast<std::int64_t>(*window * 1e6));
    }
    return policy;
}

struct ProblemTuning::Impl {
    const Problem& problem;
    vulkan::Device& device;
    TuningOptions options;
    DeviceLimits limits;
    DeviceClient client;
    ProblemRunner runner;
    tune::LocalTuner<ProblemKey, std::uint32_t> tuner;
    std::shared_ptr<const ProblemTunableSet> set;

    Impl(const Problem& p, vulkan::Device& d, TuningOptions o)
        : problem(p),
          device(d),
          options(std::move(o)),
          limits(DeviceLimits::from(d.info())),
          client(d.info()),
          runner(p, d, RunnerOptions{options.batch, options.on_candidate}),
          tuner(p.name, tuner_options()) {
        set = tuner.init(device.info().index, [this] { return runner.make_set(); });
    }

    tune::TunerOptions tuner_options() {
        if (!options.store) {
            options.store = std::make_shared<tune::InMemoryStore>();
        }
        tune::TunerOptions tuner;
        tuner.sampling = options.sampling;
        tuner.compile_only = options.compile_only;
        tuner.miss_policy = options.miss_policy;
        tuner.checks = true;  // a wrong candidate must never win
        tuner.store = options.store;
        tuner.reporter = options.reporter;
        return tuner;
    }
};

ProblemTuning::ProblemTuning(const Problem& problem, vulkan::Device& device, TuningOptions options)
    : impl_(std::make_unique<Impl>(problem, device, std::move(options))) {}

ProblemTuning::~ProblemTuning() = default;

KeyReport ProblemTuning::tune(const ProblemKey& exact_key) {
    const auto start = std::chrono::steady_clock::now();
    Impl& impl = *impl_;
    const KeyPlan plan = plan_key(impl.problem, exact_key, &impl.limits, impl.options.level);

    KeyReport report;
    report.key = plan.key;
    report.tuning_key = plan.tuning_key;
    report.skipped = plan.skipped;
    auto finish = [&]() -> KeyReport {
        report.samples = impl.runner.samples(exact_key);
        report.elapsed_s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return std::move(report);
    };
    if (plan.error) {
        report.error = *plan.error;
        return finish();
    }

    const tune::HardwareIdentity& hardware = impl.client.hardware_identity();
    const tune::EntryAddress address{impl.problem.name, impl.set->checksum(),
                                     tune::canonical_key_json(plan.tuning_key)};
    if (impl.options.retune && !impl.options.compile_only &&
        impl.options.miss_policy == tune::MissPolicy::tune) {
        impl.options.store->mark_needs_retune(hardware, address);
    }

    tune::ExecutionInfo info;
    auto result = impl.tuner.execute(impl.device.info().index, impl.client, *impl.set,
                                     KeyInputs{&plan}, &info);
    if (!result) {
        report.error = result.error().message;
        report.entry = impl.options.store->load(hardware, address);
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
        default:
            report.status = KeyStatus::cached;
            break;
    }
    report.entry = impl.options.store->load(hardware, address);
    return finish();
}

}  // namespace spvtune::problem
