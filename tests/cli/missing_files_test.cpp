// A path named on the command line that is not there is reported the same way by every command,
// `spvtune: error: <path>: <reason>` and exit 2, rather than in CLI11's words, the problem
// loader's or the cache library's.
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "cache/temp_directory.hpp"
#include "spvtune_run.hpp"

namespace missing_files_test {

using namespace spvtune::test;
using spvtune::tune::testing::TempDirectory;

namespace {

struct MissingPathCase {
    std::vector<std::string> args;
    std::string path;    ///< the path the message must name
    std::string reason;  ///< what it must say of it
};

}  // namespace

TEST_CASE("every command names a missing file or directory in one style") {
    TempDirectory scratch;
    const std::string here = scratch.path().string();
    const std::string file = (scratch.path() / "missing.json").string();
    const std::string directory = (scratch.path() / "missing-dir").string();
    const std::string problem = SPVTUNE_CONFIG_DIR "/saxpy.json";
    const std::string output = (scratch.path() / "out").string();
    const std::vector<MissingPathCase> cases = {
        {{"tune", file}, file, "no such file"},
        {{"tune", problem, file}, file, "no such file"},
        {{"check", file}, file, "no such file"},
        {{"compare", file}, file, "no such file"},
        {{"compare", problem, file}, file, "no such file"},
        {{"compare", "--results", file, problem}, file, "no such file"},
        {{"compare", problem, "--base-kernel-dir", directory, "--new-kernel-dir", here},
         directory,
         "no such directory"},
        {{"report", file, "-o", output}, file, "no such file"},
        {{"show-output", file}, file, "no such file"},
        {{"cache", "show", file, "--cache-dir", here}, file, "no such cache file"},
        {{"cache", "clear", file, "--cache-dir", here}, file, "no such cache file"},
        {{"cache", "merge", file, "-o", output}, file, "no such file or directory"},
        {{"cache", "diff", here, file}, file, "no such file or directory"},
        {{"cache", "compact", directory}, directory, "no such directory"},
        {{"cache", "verify", directory, "--problems", problem}, directory, "no such directory"},
        {{"cache", "verify", here, "--problems", file}, file, "no such file"},
        {{"cache", "prune", directory, "--problems", problem}, directory, "no such directory"},
        {{"cache", "prune", here, "--problems", file}, file, "no such file"},
        {{"tune", here}, here, "is a directory, not a file"},
        {{"cache", "compact", problem}, problem, "is not a directory"},
    };
    for (const MissingPathCase& c : cases) {
        std::string line = "spvtune";
        for (const std::string& word : c.args) {
            line += " " + word;
        }
        CAPTURE(line);
        TempDirectory run_scratch;
        const SpvtuneRun run = run_spvtune(run_scratch, c.args);
        CHECK(run.exit_code == 2);
        // Exactly one line: no second message in another style, no usage hint for a typo.
        CHECK(run.err == "spvtune: error: " + c.path + ": " + c.reason + "\n");
        CHECK(run.out.empty());
    }
}

TEST_CASE("check reports a missing file in that style and still checks the other files") {
    TempDirectory scratch;
    const std::string file = (scratch.path() / "missing.json").string();
    const SpvtuneRun run = run_spvtune(scratch, {"check", file, SPVTUNE_CONFIG_DIR "/saxpy.json"});
    CHECK(run.exit_code == 2);
    CHECK(run.err == "spvtune: error: " + file + ": no such file\n");
    CHECK(contains(run.out, "saxpy.json: valid"));
}

TEST_CASE("the other command-line mistakes are reported in that style too") {
    TempDirectory scratch;
    const SpvtuneRun run =
        run_spvtune(scratch, {"tune", SPVTUNE_CONFIG_DIR "/saxpy.json", "--samples", "0"});
    CHECK(run.exit_code == 2);
    CHECK(run.err.starts_with("spvtune: error: --samples: expected an integer"));
    CHECK(contains(run.err, "Run 'spvtune tune --help' for its usage."));
}

}  // namespace missing_files_test
