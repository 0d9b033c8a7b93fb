#include <optional>
#include <stdexcept>
#include <utility>

#include <spvtune/cache/cache_file_store.hpp>
#include <spvtune/cache/cache_location.hpp>
#include <spvtune/cache/pipeline_cache_file.hpp>
#include <spvtune/problem/load_options.hpp>
#include <spvtune/run/device_bridge.hpp>
#include <spvtune/run/device_executor.hpp>
#include <spvtune/run/session.hpp>
#include <spvtune/run/worker_executor.hpp>
#include <spvtune/vulkan/selected_device.hpp>

#include "fence_timeout.hpp"

namespace spvtune::run {

struct Session::Impl {
    SessionSettings settings;
    /// The cache directory, or why none can be chosen: only a tuning needs one.
    std::optional<std::filesystem::path> directory;
    std::string no_directory;
    std::optional<vulkan::SelectedDevice> selected;
    std::optional<tune::HardwareIdentity> hardware;
    std::shared_ptr<cache::CacheFileStore> store;
    /// The worker start_worker() started, and the problem it is for.
    std::unique_ptr<WorkerExecutor> early_worker;
    const problem::Problem* early_problem = nullptr;

    vulkan::SelectedDevice& device() {
        if (!selected) {
            // With workers this process never creates a logical device: a hung kernel can only
            // block a worker, which the watchdog kills, never the report and the exit code.
            selected.emplace(
                settings.device,
                settings.in_process ? vulkan::DeviceAccess::logical
                                    : vulkan::DeviceAccess::physical,
                vulkan::DeviceOptions{
                    .fence_timeout = fence_timeout_for(settings.overrides.kernel_timeout_s),
                    .fence_timeout_hint = std::string(fence_timeout_hint)});
            hardware = hardware_identity(selected->info().identity);
        }
        return *selected;
    }

    cache::CacheFileStore& open_store() {
        device();
        if (!store) {
            if (!directory) {
                throw std::runtime_error(no_directory);
            }
            store = std::make_shared<cache::CacheFileStore>(
                *directory, cache::CacheFileStoreOptions{.keep_ranking = settings.keep_ranking});
        }
        return *store;
    }

    /// The problem file's settings under the overrides, with the session's store and device.
    TuningOptions tuning_options(const problem::Problem& problem, OutputDump* dump) {
        open_store();
        TuningOptions tuning;
        tuning.tuner.sampling = sampling_settings(problem.settings, settings.overrides);
        tuning.tuner.search = search_settings(problem.settings, settings.overrides);
        tuning.tuner.miss_policy = settings.miss_policy;
        tuning.tuner.retune = settings.retune;
        tuning.tuner.store = store;
        tuning.tuner.reporter = settings.reporter;
        tuning.batch = batch_policy(problem.settings, settings.overrides);
        tuning.level = settings.level;
        tuning.dump = dump;
        if (settings.pipeline_cache) {
            tuning.pipeline_cache = *directory / cache::pipeline_cache_file_name(*hardware);
        }
        tuning.build_threads =
            settings.build_threads.value_or(default_build_threads(device().info()));
        tuning.note = settings.note;
        return tuning;
    }

    /// How a worker for `problem` starts: told to load it as this process did, on the same
    /// device, and how long its kernels may run.
    WorkerLaunch worker_launch(const problem::Problem& problem,
                               const problem::LoadOptions& loaded_with) const {
        WorkerLaunch launch;
        launch.setup.problem_file = problem.file;
        launch.setup.load = loaded_with;
        launch.setup.device = settings.device;
        launch.setup.batch = batch_policy(problem.settings, settings.overrides);
        launch.setup.level = settings.level;
        const auto timeout = settings.overrides.kernel_timeout_s
                                 ? settings.overrides.kernel_timeout_s
                                 : problem.settings.kernel_timeout_s;
        if (timeout) {
            launch.kernel_timeout = std::chrono::duration<double>(*timeout);
        }
        launch.setup.fence_timeout = fence_timeout_for(timeout);
        // A comparison prefetches nothing, so its worker builds nothing ahead (tuning_worker's
        // may), as one in process does not.
        launch.setup.build_threads = 0;
        return launch;
    }

    /// A worker for tune(problem), which keeps the pipeline cache and builds ahead, as this
    /// process would in process. Its setup needs no device: the worker names the pipeline cache
    /// file and sizes its build threads by its own.
    std::unique_ptr<WorkerExecutor> tuning_worker(const problem::Problem& problem,
                                                  const problem::LoadOptions& loaded_with) const {
        WorkerLaunch launch = worker_launch(problem, loaded_with);
        if (settings.pipeline_cache && directory) {
            launch.setup.pipeline_cache_dir = *directory;
        }
        launch.setup.build_threads = settings.build_threads;
        launch.setup.notes = static_cast<bool>(settings.note);
        return std::make_unique<WorkerExecutor>(problem, std::move(launch));
    }
};

Session::Session(SessionSettings settings) : impl_(std::make_unique<Impl>()) {
    impl_->settings = std::move(settings);
    try {
        impl_->directory = cache::resolve_cache_directory(impl_->settings.cache_dir);
    } catch (const std::runtime_error& error) {
        impl_->no_directory = error.what();
    }
}

Session::~Session() = default;

const SessionSettings& Session::settings() const noexcept {
    return impl_->settings;
}

problem::LoadOptions Session::load_options(
    std::vector<std::filesystem::path> first_kernel_dirs) const {
    first_kernel_dirs.insert(first_kernel_dirs.end(), impl_->settings.kernel_dirs.begin(),
                             impl_->settings.kernel_dirs.end());
    return problem::load_options_in(std::move(first_kernel_dirs), impl_->directory);
}

const vulkan::PhysicalDeviceInfo& Session::device() {
    return impl_->device().info();
}

const tune::HardwareIdentity& Session::hardware() {
    impl_->device();
    return *impl_->hardware;
}

std::filesystem::path Session::cache_file() {
    return impl_->open_store().file_for(hardware());
}

ProblemTuning Session::tune(const problem::Problem& problem, OutputDump* dump) {
    Impl& impl = *impl_;
    TuningOptions tuning = impl.tuning_options(problem, dump);
    if (impl.settings.in_process) {
        return ProblemTuning(problem, impl.device().device(), std::move(tuning));
    }
    std::unique_ptr<WorkerExecutor> worker;
    if (impl.early_problem == &problem) {
        worker = std::move(impl.early_worker);
        impl.early_problem = nullptr;
    } else {
        // The one started early stays for its own problem, which comes later.
        worker = impl.tuning_worker(problem, load_options());
    }
    return ProblemTuning(problem, impl.device().info(), std::move(worker), std::move(tuning));
}

void Session::start_worker(const problem::Problem& problem) {
    Impl& impl = *impl_;
    if (impl.settings.in_process || impl.early_problem == &problem) {
        return;
    }
    impl.early_worker = impl.tuning_worker(problem, load_options());
    impl.early_problem = &problem;
    impl.early_worker->start_early();
}

std::unique_ptr<CandidateExecutor> Session::executor(const problem::Problem& problem,
                                                     const problem::LoadOptions& loaded_with) {
    Impl& impl = *impl_;
    if (impl.settings.in_process) {
        return std::make_unique<DeviceExecutor>(
            problem, impl.device().device(),
            batch_policy(problem.settings, impl.settings.overrides));
    }
    auto worker =
        std::make_unique<WorkerExecutor>(problem, impl.worker_launch(problem, loaded_with));
    worker->start_early();
    return worker;
}

void Session::finish() {
    if (impl_->store) {
        impl_->store->fold_journal(*impl_->hardware);
    }
}

}  // namespace spvtune::run
