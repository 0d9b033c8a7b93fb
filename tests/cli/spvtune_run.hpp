#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cache/temp_directory.hpp"

namespace spvtune::test {

/// What one run of the spvtune binary did.
struct SpvtuneRun {
    int exit_code = 0;
    std::string out;
    std::string err;
};

/// Runs `binary` with `args`, as a user would, in this process's environment; stderr is
/// collected through a file in `scratch`.
SpvtuneRun run_program(const std::string& binary, const tune::testing::TempDirectory& scratch,
                       const std::vector<std::string>& args);

/// run_program on the built spvtune binary.
SpvtuneRun run_spvtune(const tune::testing::TempDirectory& scratch,
                       const std::vector<std::string>& args);

/// Exit code of run_spvtune_within when the time ran out (timeout(1)'s).
inline constexpr int timed_out = 124;

/// run_spvtune for a run that must not hang (a FIFO, an endless input): the child is stopped
/// after `seconds` (timeout(1): SIGTERM, then SIGKILL 5 s later) and the exit code is then
/// `timed_out`, so a regression fails the test instead of blocking the suite.
SpvtuneRun run_spvtune_within(const tune::testing::TempDirectory& scratch, int seconds,
                              const std::vector<std::string>& args);

/// run_spvtune with the child's standard output sent to `stdout_path` (such as /dev/full, to
/// see how it handles a failing write) instead of the pipe; `out` stays empty.
SpvtuneRun run_spvtune_writing_to(const tune::testing::TempDirectory& scratch,
                                  const std::string& stdout_path,
                                  const std::vector<std::string>& args);

/// run_spvtune where file permissions apply: tests often run as root, whose capabilities read
/// a mode-000 file or directory anyway, so as root the child runs without them (setpriv).
/// Nothing when this process is root and setpriv is missing: the caller skips its check.
std::optional<SpvtuneRun> run_spvtune_unprivileged(const tune::testing::TempDirectory& scratch,
                                                   const std::vector<std::string>& args);

inline bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

}  // namespace spvtune::test
