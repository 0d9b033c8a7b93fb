#pragma once

#include <string_view>
#include <sys/types.h>

namespace spvtune::run::worker {

/// Test-only faults, so the tests can show that a faulty kernel costs one candidate: with
/// SPVTUNE_TEST_WORKER_FAULT=KIND or KIND:CANDIDATE (only that candidate), the worker fakes
/// what a faulty kernel does, just before it would handle `op` ("prepare", "run", "measure"):
///   hang               run or measure never returns (a dispatch that loops forever)
///   abort              measure aborts the process (a worker that dies mid-key)
///   crash-in-pipeline  prepare dies of SIGSEGV (a driver crash while compiling)
///   device-lost        run throws vulkan::DeviceLostError (VK_ERROR_DEVICE_LOST)
///   stop-group         the first measure stops the worker's process group (SIGSTOP, as
///                      Ctrl-Z would), tune included, until the test continues it
/// Unset (always, outside tests): nothing happens.
void inject_test_fault(std::string_view op, std::string_view candidate);

/// Test-only: with SPVTUNE_TEST_WORKER_LOG=FILE, the worker appends "start PID" to FILE as it
/// starts, so a test can tell when workers start and how many. Unset: nothing happens.
void log_test_start();

/// Test-only: with SPVTUNE_TEST_WORKER_LOG=FILE, the tuner appends "spawn PID" to FILE when it
/// has made the worker process `pid`. A worker ended before it ran its first line (a tuner whose
/// look at the device failed at once) logs no start, but its spawn is logged all the same.
void log_test_spawn(pid_t pid);

}  // namespace spvtune::run::worker
