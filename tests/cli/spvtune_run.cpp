#include "spvtune_run.hpp"

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

}  // namespace spvtune::test
