#pragma once

#include <string_view>

#include <spvtune/run/worker_protocol.hpp>

namespace spvtune::run {

/// The one argument a WorkerExecutor starts a worker with: it starts this very program
/// (/proc/self/exe) as `<program> __worker`, so a program that runs candidates in worker
/// processes hands that argument over to worker_main (spvtune's hidden subcommand does). Every
/// setting travels in the protocol's `setup` message, never on the command line.
inline constexpr std::string_view worker_argument = "__worker";

/// The whole life of a worker process, the worker's side of WorkerExecutor: reads the `setup`
/// message on `fd` (worker::Setup), loads the problem file with its load options and opens the
/// device it names, says it is ready, then serves prepare, prefetch, run, measure and save
/// requests with a DeviceExecutor until the tuner closes the socket. Each request names a
/// candidate and the exact key; the worker plans the key itself, as the tuner did. A setup that
/// cannot be read, or a problem or device that fails, goes back to the tuner as the reason the
/// worker did not start. Returns the process exit code: 0 when the tuner closed the socket,
/// non-zero when the worker could not start, the device was lost (after saying so) or the
/// tuner's bytes were garbled.
int worker_main(int fd = worker::worker_fd);

}  // namespace spvtune::run
