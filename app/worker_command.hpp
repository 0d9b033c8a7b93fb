#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <spvtune/tune/anchor.hpp>

namespace spvtune::app {

/// The hidden subcommand a tuner starts its worker processes with; not for users.
inline constexpr std::string_view worker_command_name = "__worker";

/// How a worker builds pipelines: the file keeping the device's pipeline cache (empty: none),
/// its build threads, and whether it says why a pipeline cache file was ignored.
struct WorkerPipelines {
    std::string pipeline_cache;
    std::size_t build_threads = 0;
    bool notes = false;
};

/// The command line of a worker for one problem file: this very binary, the same kernel
/// directories, cache directory (`--cache-dir`, may be empty: where compiled GLSL is kept),
/// device, sample window and autotune level as the tuner's.
std::vector<std::string> worker_command_line(
    const std::string& problem_file, const std::vector<std::string>& kernel_dirs,
    const std::string& cache_dir, const std::string& device, std::chrono::nanoseconds min_window,
    tune::AutotuneLevel level, const WorkerPipelines& pipelines = {});

}  // namespace spvtune::app
