#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace spvtune::tune::testing {

/// A child process whose stdout is read through a pipe. The destructor kills and reaps it if
/// the test did not, so a failing check never leaves a writer running.
class Subprocess {
  public:
    /// Starts argv[0] (a path) with the given arguments; its stderr goes to `stderr_file` when
    /// given, else to this process's stderr.
    explicit Subprocess(const std::vector<std::string>& argv,
                        const std::optional<std::filesystem::path>& stderr_file = std::nullopt);
    ~Subprocess();
    Subprocess(const Subprocess&) = delete;
    Subprocess& operator=(const Subprocess&) = delete;

    /// The next line the child writes to stdout (without the newline); "" at end of output.
    std::string read_line();
    /// Everything the child writes to stdout from here until it closes it (exits or is killed).
    std::string read_stdout();
    /// SIGKILL, at once.
    void kill();
    /// Sends `signal` (e.g. SIGINT, as Ctrl-C would).
    void send(int signal);
    /// Waits for the child; returns its exit code, or 128 + signal when a signal ended it.
    int wait();
    /// The child's process id (until it is waited for).
    pid_t pid() const noexcept { return pid_; }

  private:
    pid_t pid_ = -1;
    int stdout_fd_ = -1;
    std::string buffered_;  ///< read from the pipe but not yet returned

    bool fill();
};

}  // namespace spvtune::tune::testing
