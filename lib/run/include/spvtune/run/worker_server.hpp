#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

#include <spvtune/problem/problem.hpp>
#include <spvtune/tune/anchor.hpp>
#include <spvtune/vulkan/batched_timer.hpp>
#include <spvtune/vulkan/device.hpp>

namespace spvtune::run {

/// What a worker must agree on with the tuner that started it, besides the problem file.
struct WorkerSetup {
    vulkan::BatchPolicy batch;
    tune::AutotuneLevel level = tune::AutotuneLevel::balanced;
    /// The file that keeps the device's pipeline cache between runs; empty: none.
    std::filesystem::path pipeline_cache;
    /// Threads that build the pipelines of prefetched candidates ahead.
    std::size_t build_threads = 0;
    /// Whether notes that are no error (a pipeline cache file ignored) go to stderr.
    bool notes = false;
};

/// The worker's side of WorkerExecutor: says it is ready, then serves prepare, prefetch, run and
/// measure requests on `fd` (a socket) with a DeviceExecutor until the tuner closes it. Each
/// request names a candidate and the exact key; the worker plans the key itself, as the tuner did.
/// Returns the process exit code: 0 when the tuner closed the socket, non-zero when the
/// device was lost (after saying so) or the tuner's bytes were garbled.
int serve_worker(const problem::Problem& problem, vulkan::Device& device, const WorkerSetup& setup,
                 int fd);

/// Tells the tuner that the worker could not start (its problem file or device failed), so the
/// tuner reports `message` rather than a bare exit.
void report_worker_start_failure(int fd, const std::string& message);

}  // namespace spvtune::run
