#pragma once

#include <chrono>
#include <string>
#include <sys/types.h>
#include <vector>

namespace spvtune::run::worker {

/// A worker process this process started, connected by a socket. The destructor closes the
/// socket, gives the worker a second to exit, then kills it.
class ChildProcess {
  public:
    /// Starts `argv` (argv[0] is the program's path) in `environment` ("NAME=value" strings)
    /// with its end of a new socket pair at worker_fd. The child ignores SIGINT (the terminal's
    /// Ctrl-C is for the tuner, which decides when to stop) and dies with its parent, so a killed
    /// tuner leaves no worker. Throws std::runtime_error when the process cannot be made.
    ChildProcess(const std::vector<std::string>& argv, const std::vector<std::string>& environment);
    ~ChildProcess();
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    /// The parent's end of the socket.
    int fd() const noexcept { return fd_; }
    /// The child's process id; -1 once it was reaped.
    pid_t pid() const noexcept { return pid_; }

    /// Ends the child: SIGTERM, SIGKILL if it is still there after `grace`, then reaps it.
    /// Returns how it ended, as describe_exit says. Idempotent.
    std::string stop(std::chrono::milliseconds grace);

    /// Waits up to `grace` for the child to exit on its own (it closed its socket), then stops
    /// it; returns how it ended.
    std::string reap(std::chrono::milliseconds grace);

  private:
    pid_t pid_ = -1;
    int fd_ = -1;
    std::string ended_;
};

/// How a waitpid status reads: "it was killed by signal 6 (SIGABRT)", "it exited with status 1".
std::string describe_exit(int status);

}  // namespace spvtune::run::worker
