#include "worker_command.hpp"

#include <chrono>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include <spvtune/problem/problem.hpp>
#include <spvtune/run/worker_protocol.hpp>
#include <spvtune/run/worker_server.hpp>
#include <spvtune/tune/anchor.hpp>
#include <spvtune/vulkan/selected_device.hpp>

#include "command.hpp"
#include "problem_loading.hpp"

namespace spvtune::app {
namespace {

struct WorkerOptions {
    std::string file;
    std::vector<std::string> kernel_dirs;
    std::string cache_dir;
    std::string device;
    std::int64_t min_window_ns = 0;
    std::string level;
    std::string pipeline_cache;
    std::size_t build_threads = 0;
    bool notes = false;
};

/// The worker process `tune` starts: loads the same problem on the same device and serves
/// its requests on worker::worker_fd. Every failure goes back over the socket.
int run_worker(const WorkerOptions& options) {
    const int fd = run::worker::worker_fd;
    try {
        run::WorkerSetup setup;
        setup.batch.min_window = std::chrono::nanoseconds(options.min_window_ns);
        auto level = tune::parse_autotune_level(options.level);
        if (!level) {
            run::report_worker_start_failure(fd, level.error());
            return exit_usage;
        }
        setup.level = level.value();
        setup.pipeline_cache = options.pipeline_cache;
        setup.build_threads = options.build_threads;
        setup.notes = options.notes;
        const problem::Problem loaded = problem::load_problem(
            options.file, load_options(options.kernel_dirs, options.cache_dir));
        vulkan::SelectedDevice selected(options.device);
        return run::serve_worker(loaded, selected.device(), setup, fd);
    } catch (const std::exception& error) {
        run::report_worker_start_failure(fd, error.what());
        return exit_failure;
    }
}

}  // namespace

CommandAction register_worker_command(CLI::App& parent) {
    auto options = std::make_shared<WorkerOptions>();
    auto* command = parent.add_subcommand(std::string(worker_command_name), "");
    command->group("");  // hidden: only tune starts it
    command->add_option("--problem", options->file)->required();
    command->add_option("--kernel-dir", options->kernel_dirs)->allow_extra_args(false);
    command->add_option("--cache-dir", options->cache_dir);
    command->add_option("--device", options->device);
    command->add_option("--min-window-ns", options->min_window_ns)->required();
    command->add_option("--level", options->level)->required();
    command->add_option("--pipeline-cache", options->pipeline_cache);
    command->add_option("--build-threads", options->build_threads);
    command->add_flag("--notes", options->notes);
    return [options] { return run_worker(*options); };
}

std::vector<std::string> worker_command_line(
    const std::string& problem_file, const std::vector<std::string>& kernel_dirs,
    const std::string& cache_dir, const std::string& device, std::chrono::nanoseconds min_window,
    tune::AutotuneLevel level, const WorkerPipelines& pipelines) {
    // The binary itself, whatever name or path it was started by.
    std::vector<std::string> argv{"/proc/self/exe",  std::string(worker_command_name),
                                  "--problem",       problem_file,
                                  "--min-window-ns", std::to_string(min_window.count()),
                                  "--level",         std::string(tune::to_string(level))};
    // The same glsl/ folder, so the worker finds what the tuner compiled, GLSL per key above all.
    if (!cache_dir.empty()) {
        argv.push_back("--cache-dir");
        argv.push_back(cache_dir);
    }
    if (!device.empty()) {
        argv.push_back("--device");
        argv.push_back(device);
    }
    for (const std::string& dir : kernel_dirs) {
        argv.push_back("--kernel-dir");
        argv.push_back(dir);
    }
    if (!pipelines.pipeline_cache.empty()) {
        argv.push_back("--pipeline-cache");
        argv.push_back(pipelines.pipeline_cache);
    }
    argv.push_back("--build-threads");
    argv.push_back(std::to_string(pipelines.build_threads));
    if (pipelines.notes) {
        argv.push_back("--notes");
    }
    return argv;
}

}  // namespace spvtune::app
