// Errors reading an input are said as what they are, naming the file and the operation: an I/O
// error while reading a problem file (/proc/self/mem fails every read with EIO) was a "JSON
// syntax error", and running out of memory a bare "std::bad_alloc" (issue 34).

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "cache/temp_directory.hpp"
#include "cli/spvtune_run.hpp"

namespace input_errors_test {

using namespace spvtune::tune::testing;
using spvtune::test::contains;
using spvtune::test::run_program;
using spvtune::test::run_spvtune;
using spvtune::test::SpvtuneRun;
namespace fs = std::filesystem;

namespace {

// Opens as a regular file, and every read of it fails with EIO.
const std::string failing_file = "/proc/self/mem";

}  // namespace

TEST_CASE("input errors: an I/O error reading a problem file names the file and the read") {
    TempDirectory scratch;
    const std::string cache = (scratch.path() / "cache").string();
    for (const char* command : {"check", "tune"}) {
        CAPTURE(command);
        const SpvtuneRun run = run_spvtune(scratch, {command, failing_file, "--cache-dir", cache});
        CHECK(run.exit_code == 2);
        CHECK_MESSAGE(
            contains(run.err, failing_file + ": cannot read the problem file: Input/output error"),
            run.err);
        CHECK_MESSAGE(!contains(run.err, "JSON syntax error"), run.err);
    }
}

TEST_CASE("input errors: an I/O error reading a report or saved results names it") {
    TempDirectory scratch;
    const SpvtuneRun report = run_spvtune(
        scratch, {"report", failing_file, "-o", (scratch.path() / "page.html").string()});
    CHECK(report.exit_code == 2);
    CHECK_MESSAGE(contains(report.err, "spvtune: error: " + failing_file +
                                           ": cannot read the file: Input/output error"),
                  report.err);
    const SpvtuneRun compare =
        run_spvtune(scratch, {"compare", "--results", failing_file, failing_file});
    CHECK(compare.exit_code == 2);
    CHECK_MESSAGE(
        contains(compare.err, failing_file + ": cannot read the saved results: Input/output error"),
        compare.err);
}

// Under AddressSanitizer the process reserves terabytes of address space, so a limit on it
// cannot be set; the default build runs this. This file may be compiled without the
// sanitizers while the binary it runs has them (SPVTUNE_BINARY_SANITIZED).
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__) && \
    !defined(SPVTUNE_BINARY_SANITIZED)
TEST_CASE("input errors: running out of memory names the command and what it was reading") {
    TempDirectory scratch;
    // A dumped buffer of 1 GiB (sparse: no disk is used), read under a 400 MB address space.
    const fs::path manifest = scratch.path() / "dump.json";
    write_bytes(manifest, R"({"problem": "p", "key": {}, "candidate": "c", "reference": false,
        "buffer": "y", "type": "f32", "count": 268435456, "data": "dump.bin"})");
    write_bytes(scratch.path() / "dump.bin", "");
    fs::resize_file(scratch.path() / "dump.bin", std::uintmax_t{1} << 30);
    const SpvtuneRun run =
        run_program("/bin/sh", scratch,
                    {"-c", "ulimit -v 400000 && exec \"$0\" show-output \"$1\" --range 0:2",
                     SPVTUNE_BINARY, manifest.string()});
    CHECK(run.exit_code == 1);
    CHECK_MESSAGE(contains(run.err,
                           "spvtune: error: out of memory in `spvtune show-output` while "
                           "reading the dumped output " +
                               manifest.string()),
                  run.err);
    // Not cut short quietly either, as a stream would: "the data file holds 134217728 bytes".
    CHECK_MESSAGE(!contains(run.err, "the data file holds"), run.err);
}
#endif

}  // namespace input_errors_test
