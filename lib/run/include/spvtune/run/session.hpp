#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <spvtune/problem/problem.hpp>
#include <spvtune/run/candidate_executor.hpp>
#include <spvtune/run/output_dump.hpp>
#include <spvtune/run/problem_tuning.hpp>
#include <spvtune/tune/anchor.hpp>
#include <spvtune/tune/events.hpp>
#include <spvtune/tune/hardware_identity.hpp>
#include <spvtune/tune/tuner_options.hpp>
#include <spvtune/vulkan/physical_device_info.hpp>

namespace spvtune::run {

/// What holds for every problem of a session: a command's options, turned into settings.
struct SessionSettings {
    /// The device, as vulkan::select_device takes a selector; empty: the default device.
    std::string device;
    /// Run the candidates in this process, on a logical device of its own. Otherwise each
    /// problem's candidates run in a worker process under a watchdog (WorkerExecutor) and this
    /// process only describes the device: a hung or crashing kernel costs its candidate, and
    /// can never hang the run or take its report with it.
    bool in_process = false;
    /// The cache directory; empty: the environment's (cache::resolve_cache_directory).
    std::filesystem::path cache_dir;
    /// Where kernels are searched before the defaults, in order (problem::LoadOptions).
    std::vector<std::filesystem::path> kernel_dirs;
    /// Settings that override each problem file's own (sampling, search, the kernel timeout).
    problem::Settings overrides;
    /// How coarsely bucketed key parameters share tuning keys.
    tune::AutotuneLevel level = tune::AutotuneLevel::balanced;

    // What Session::tune does; a comparison measures with none of it.

    /// What a key the store does not hold does: measured, compiled only, or run untuned.
    tune::MissPolicy miss_policy = tune::MissPolicy::tune;
    /// Measure keys again even when the store holds them (tune::TunerOptions::retune).
    bool retune = false;
    /// The cache file keeps every ranked candidate's statistics, not only the winner's.
    bool keep_ranking = false;
    /// Keep the device's pipeline cache in a file next to the cache file between runs.
    bool pipeline_cache = true;
    /// Threads that build pipelines ahead; none: default_build_threads of the device.
    std::optional<std::size_t> build_threads;
    /// Receives the tuners' events (tune::TunerOptions::reporter).
    tune::Reporter reporter;
    /// Hears notes that are no error (a pipeline cache file ignored); null: nobody. A worker
    /// process writes its own to stderr ("spvtune: note: ...") when this is set.
    std::function<void(const std::string&)> note;
};

/// One run of problems on one device: what `spvtune tune` and `spvtune compare` do between
/// reading their options and printing their reports, for any program.
///
/// It owns what every problem of the run shares, each decided once: the device (in this process,
/// or only described here while worker processes hold it), its hardware identity, the cache
/// directory (SessionSettings::cache_dir, else the environment's, resolved when the session is
/// made), the cache file store and the pipeline cache file next to it, and how worker processes
/// are started and for how long their kernels may run. From it come a ProblemTuning per problem
/// to tune and an executor per side of a comparison; finish() ends the run.
///
/// Making a session touches no device and no file: problem files are loaded first, with
/// load_options(), so that an invalid file is reported without a device; the device is selected
/// on first use and the store opened when first needed. Use it from one thread; what it hands
/// out must not outlive it.
class Session {
  public:
    explicit Session(SessionSettings settings);
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    const SessionSettings& settings() const noexcept;

    /// How this session loads problem files, and its workers load them again:
    /// `first_kernel_dirs`, then the settings' kernel folders, and compiled GLSL kept in the
    /// cache directory's `glsl` folder (none without a cache directory: GLSL is then compiled
    /// on every run, which is still correct).
    problem::LoadOptions load_options(
        std::vector<std::filesystem::path> first_kernel_dirs = {}) const;

    /// The device, selected (and, in process, created) on the first call. Throws
    /// vulkan::DeviceSelectionError when the selector names none, and the Vulkan engine's
    /// errors when it cannot be used.
    const vulkan::PhysicalDeviceInfo& device();
    /// The device's hardware identity: it names the cache file and which tuners it shares.
    const tune::HardwareIdentity& hardware();
    /// The cache file of the device's hardware (it may not exist yet); opens the store. Throws
    /// std::runtime_error when no cache directory can be chosen (no HOME, say).
    std::filesystem::path cache_file();

    /// Tunes `problem`, loaded with load_options(), with its file's settings under the
    /// overrides, into the cache file; every output a candidate produces also goes to `dump`
    /// (null: nowhere; it must outlive the tuning).
    ProblemTuning tune(const problem::Problem& problem, OutputDump* dump = nullptr);

    /// Starts the worker process that the next tune() of `problem` uses, now, without waiting
    /// for it: its start (loading the driver, opening the device, loading the problem again)
    /// then overlaps this process's own work until that tune(), such as device() (which loads
    /// the drivers too) and opening the store. In process, and for a problem whose worker is
    /// started already, nothing. A worker that cannot start is reported by tune()'s first key,
    /// as it would be otherwise.
    void start_worker(const problem::Problem& problem);

    /// Runs the candidates of one side of a comparison: `problem`, loaded with `loaded_with`
    /// (a worker loads it again with them), measured in batches of its settings under the
    /// overrides. Its pipelines are built when first needed, with no pipeline cache file. A
    /// worker process is started at once (WorkerExecutor::start_early): made before device(),
    /// its start overlaps that look at the device.
    std::unique_ptr<CandidateExecutor> executor(const problem::Problem& problem,
                                                const problem::LoadOptions& loaded_with);

    /// Ends a run that tuned: the journal the run's saves went to is folded into the cache
    /// file, which then alone holds the results, as people read, commit and ship it
    /// (cache::CacheFileStore::fold_journal; a failure is a warning on stderr).
    void finish();

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace spvtune::run
