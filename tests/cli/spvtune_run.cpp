#include "spvtune_run.hpp"

#include <filesystem>
#include <unistd.h>

#include "cache/subprocess.hpp"

namespace spvtune::test {

SpvtuneRun run_program(const std::string& binary, const tune::testing::TempDirectory& scratch,
                       const std::vector<std::string>& args) {
    std::vector<std::string> argv{binary};
    argv.insert(argv.end(), args.begin(), args.end());
    const auto err_file = scratch.path() / "stderr.txt";
    tune::testing::Subprocess child(argv, err_file);
    SpvtuneRun run;
    run.out = child.read_stdout();
    run.exit_code = child.wait();
    run.err = tune::testing::read_bytes(err_file);
    return run;
}

SpvtuneRun run_spvtune(const tune::testing::TempDirectory& scratch,
                       const std::vector<std::string>& args) {
    return run_program(SPVTUNE_BINARY, scratch, args);
}

SpvtuneRun run_spvtune_within(const tune::testing::TempDirectory& scratch, int seconds,
                              const std::vector<std::string>& args) {
    std::vector<std::string> timeout_args{"--kill-after=5", std::to_string(seconds) + "s",
                                          SPVTUNE_BINARY};
    timeout_args.insert(timeout_args.end(), args.begin(), args.end());
    return run_program("/usr/bin/timeout", scratch, timeout_args);
}

SpvtuneRun run_spvtune_writing_to(const tune::testing::TempDirectory& scratch,
                                  const std::string& stdout_path,
                                  const std::vector<std::string>& args) {
    // The shell opens the file, so a path that refuses writes still starts spvtune.
    std::vector<std::string> shell_args{"-c", "out=$1; shift; exec \"$@\" > \"$out\"", "sh",
                                        stdout_path, SPVTUNE_BINARY};
    shell_args.insert(shell_args.end(), args.begin(), args.end());
    return run_program("/bin/sh", scratch, shell_args);
}

std::optional<SpvtuneRun> run_spvtune_unprivileged(const tune::testing::TempDirectory& scratch,
                                                   const std::vector<std::string>& args) {
    if (::geteuid() != 0) {
        return run_spvtune(scratch, args);
    }
    const std::string setpriv = "/usr/bin/setpriv";
    if (!std::filesystem::exists(setpriv)) {
        return std::nullopt;
    }
    // Root keeps only what the bounding set allows after exec: without these two, permission
    // bits apply to it as to its owner.
    std::vector<std::string> setpriv_args{"--bounding-set=-dac_override,-dac_read_search",
                                          SPVTUNE_BINARY};
    setpriv_args.insert(setpriv_args.end(), args.begin(), args.end());
    return run_program(setpriv, scratch, setpriv_args);
}

}  // namespace spvtune::test
