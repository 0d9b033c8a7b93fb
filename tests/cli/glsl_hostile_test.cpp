// GLSL inputs that once made `check` and `tune` run forever (issue 34): a GLSL cache entry that
// is a FIFO, or that records an include naming a FIFO or /dev/zero, is damaged (a warning, then
// compiled again), and an #include cycle is named instead of growing the text without end.
// Every run is stopped by a timeout, so a regression fails here instead of hanging the suite.

#include <filesystem>
#include <string>
#include <sys/stat.h>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "cache/temp_directory.hpp"
#include "cli/glsl_scale_problem.hpp"
#include "cli/spvtune_run.hpp"

namespace glsl_hostile_test {

using namespace spvtune::tune::testing;
using spvtune::test::contains;
using spvtune::test::glsl_scale_problem;
using spvtune::test::run_spvtune_within;
using spvtune::test::SpvtuneRun;
using spvtune::test::timed_out;
namespace fs = std::filesystem;

namespace {

// Far beyond what check takes on these sources (well under a second), far below CTest's limit.
constexpr int seconds = 60;

// y = FACTOR * x, FACTOR from an include.
const char* const scale_glsl = R"glsl(#version 450
#include "factor.glsl"
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { float y[]; };
layout(push_constant) uniform Params { uint n; } params;
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < params.n) { y[i] = FACTOR * x[i]; }
}
)glsl";

/// The GLSL problem in a scratch directory, checked with its own cache directory.
struct GlslFixture {
    TempDirectory scratch;
    fs::path cache = scratch.path() / "cache";
    fs::path problem = scratch.path() / "scale.json";

    explicit GlslFixture(const std::string& factor = "#define FACTOR 2.0\n") {
        write_bytes(scratch.path() / "scale.comp", scale_glsl);
        write_bytes(scratch.path() / "factor.glsl", factor);
        write_bytes(problem, glsl_scale_problem);
    }

    SpvtuneRun check() const {
        return run_spvtune_within(scratch, seconds,
                                  {"check", problem.string(), "--cache-dir", cache.string()});
    }

    /// The one entry a check left in the cache directory's glsl/ folder.
    fs::path only_entry() const {
        std::vector<fs::path> entries;
        for (const auto& entry : fs::directory_iterator(cache / "glsl")) {
            entries.push_back(entry.path());
        }
        REQUIRE(entries.size() == 1);
        return entries.front();
    }
};

/// A FIFO at `path`, which blocks whoever opens it to read until a writer comes.
void make_fifo(const fs::path& path) {
    REQUIRE(::mkfifo(path.c_str(), 0644) == 0);
}

/// `entry` rewritten so that its recorded includes name `include` (with a digest no file has).
void record_include(const fs::path& entry, const std::string& include) {
    nlohmann::json json = nlohmann::json::parse(read_bytes(entry));
    REQUIRE(json.at("includes").size() == 1);
    json["includes"][0]["path"] = include;
    write_bytes(entry, json.dump());
}

}  // namespace

TEST_CASE("glsl cache: an entry that is a FIFO is damaged, warned of and compiled again") {
    const GlslFixture fixture;
    REQUIRE(fixture.check().exit_code == 0);
    const fs::path entry = fixture.only_entry();
    fs::remove(entry);
    make_fifo(entry);

    const SpvtuneRun run = fixture.check();
    REQUIRE_MESSAGE(run.exit_code != timed_out, "check blocked on the FIFO");
    CHECK_MESSAGE(run.exit_code == 0, run.out << run.err);
    CHECK_MESSAGE(
        contains(run.err, "spvtune: warning: cannot use GLSL cache entry " + entry.string() +
                              " (cannot read " + entry.string() + " (a FIFO, not a regular file)"),
        run.err);
    CHECK_MESSAGE(contains(run.err, "compiled again and replaced"), run.err);
    // Replaced by the compile: the next run reads it without a word.
    CHECK(fs::is_regular_file(fs::symlink_status(entry)));
    const SpvtuneRun again = fixture.check();
    CHECK(again.exit_code == 0);
    CHECK_MESSAGE(!contains(again.err, "warning"), again.err);
}

TEST_CASE("glsl cache: an entry whose recorded include is a FIFO is damaged, never read") {
    const GlslFixture fixture;
    REQUIRE(fixture.check().exit_code == 0);
    const fs::path entry = fixture.only_entry();
    const fs::path fifo = fixture.scratch.path() / "include.fifo";
    make_fifo(fifo);
    record_include(entry, fifo.string());

    const SpvtuneRun run = fixture.check();
    REQUIRE_MESSAGE(run.exit_code != timed_out, "check blocked on the FIFO");
    CHECK_MESSAGE(run.exit_code == 0, run.out << run.err);
    CHECK_MESSAGE(contains(run.err, "cannot use GLSL cache entry " + entry.string() +
                                        " (an include it records: cannot read " + fifo.string() +
                                        " (a FIFO, not a regular file)"),
                  run.err);
    // The entry now records the real include again.
    CHECK_FALSE(contains(read_bytes(entry), fifo.string()));
}

TEST_CASE("glsl cache: an entry whose recorded include is /dev/zero is damaged, never read") {
    const GlslFixture fixture;
    REQUIRE(fixture.check().exit_code == 0);
    const fs::path entry = fixture.only_entry();
    record_include(entry, "/dev/zero");

    const SpvtuneRun run = fixture.check();
    REQUIRE_MESSAGE(run.exit_code != timed_out, "check read /dev/zero without end");
    CHECK_MESSAGE(run.exit_code == 0, run.out << run.err);
    CHECK_MESSAGE(contains(run.err,
                           "(an include it records: cannot read /dev/zero (a device, "
                           "not a regular file)"),
                  run.err);
    CHECK_FALSE(contains(read_bytes(entry), "/dev/zero"));
}

TEST_CASE("glsl: an #include cycle is named, not followed without end") {
    const GlslFixture fixture("#include \"more.glsl\"\n");
    write_bytes(fixture.scratch.path() / "more.glsl", "#include \"factor.glsl\"\n");

    const SpvtuneRun run = fixture.check();
    REQUIRE_MESSAGE(run.exit_code != timed_out, "check followed the cycle without end");
    CHECK_MESSAGE(run.exit_code == 2, run.out << run.err);
    CHECK_MESSAGE(
        contains(run.out + run.err, "include cycle: factor.glsl -> more.glsl -> factor.glsl"),
        run.out << run.err);
}

TEST_CASE("glsl: files that include each other behind include guards compile") {
    const GlslFixture fixture(
        "#ifndef FACTOR_GLSL\n#define FACTOR_GLSL\n#include \"more.glsl\"\n"
        "#define FACTOR (2.0 * ONE)\n#endif\n");
    write_bytes(fixture.scratch.path() / "more.glsl",
                "#ifndef MORE_GLSL\n#define MORE_GLSL\n#include \"factor.glsl\"\n"
                "#define ONE 1.0\n#endif\n");

    const SpvtuneRun run = fixture.check();
    REQUIRE(run.exit_code != timed_out);
    CHECK_MESSAGE(run.exit_code == 0, run.out << run.err);
    CHECK_FALSE(contains(run.out + run.err, "include cycle"));
}

}  // namespace glsl_hostile_test
