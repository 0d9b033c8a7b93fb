// A cache directory is often restored from a CI artifact or shared between jobs, so a symbolic
// link inside it is untrusted: spvtune never writes, truncates, creates or deletes through one
// (issue 34). Each case plants a link to a scratch victim outside the cache directory, runs
// spvtune, and checks that the victim kept its bytes and the link was left alone or replaced
// itself, as docs/cache-format.md says.

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "glsl_scale_problem.hpp"
#include "tune_fixture.hpp"

namespace cache_links_test {

using namespace spvtune::test;
using spvtune::tune::testing::read_bytes;
using spvtune::tune::testing::write_bytes;
namespace fs = std::filesystem;

namespace {

const std::string victim_bytes = "the victim's own bytes\n";

/// A tuned cache directory, then the path of its cache file ("<hw>.json").
fs::path tuned_cache_file(TuneFixture& fixture) {
    const SpvtuneRun first = fixture.tune("grid2.json");
    REQUIRE_MESSAGE(first.exit_code == 0, first.err);
    const auto files = fixture.cache_files();
    REQUIRE(files.size() == 1);
    return files.front();
}

/// A scratch file outside the cache directory, for a link to point at.
fs::path make_victim(TuneFixture& fixture, const std::string& name) {
    const fs::path victim = fixture.scratch.path() / name;
    write_bytes(victim, victim_bytes);
    return victim;
}

fs::path with_suffix(const fs::path& file, const std::string& suffix) {
    return fs::path(file) += suffix;
}

// y = 2 * x, compiled by glslang and kept in the cache directory's glsl/ folder.
const char* const scale_glsl = R"glsl(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { float y[]; };
layout(push_constant) uniform Params { uint n; } params;
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < params.n) { y[i] = 2.0 * x[i]; }
}
)glsl";

/// Tunes the GLSL problem into `fixture.cache`, with --retune so every run compiles or reads
/// the GLSL cache and saves.
SpvtuneRun tune_glsl(TuneFixture& fixture) {
    write_bytes(fixture.scratch.path() / "scale.comp", scale_glsl);
    write_bytes(fixture.scratch.path() / "scale.json", glsl_scale_problem);
    return run_spvtune(fixture.scratch, {"tune", (fixture.scratch.path() / "scale.json").string(),
                                         "--cache-dir", fixture.cache.string(), "--samples", "2",
                                         "--min-samples", "2", "--warmup", "0", "--retune"});
}

}  // namespace

TEST_CASE("cache links: a journal that is a link is never written through") {
    TuneFixture fixture;
    const fs::path file = tuned_cache_file(fixture);
    const fs::path victim = make_victim(fixture, "victim");
    const fs::path journal = with_suffix(file, ".journal");
    fs::create_symlink(victim, journal);

    const SpvtuneRun run = fixture.tune("grid2.json", {"--retune"});
    CHECK(read_bytes(victim) == victim_bytes);
    CHECK(fs::is_symlink(fs::symlink_status(journal)));
    CHECK_MESSAGE(contains(run.err, journal.string()), run.err);
}

TEST_CASE("cache links: a pipeline cache file that is a link is replaced, never its target") {
    TuneFixture fixture;
    const fs::path file = tuned_cache_file(fixture);
    const fs::path victim = make_victim(fixture, "victim");
    fs::path pipelines = file;
    pipelines.replace_extension(".pipelines");
    fs::remove(pipelines);
    fs::create_symlink(victim, pipelines);

    const SpvtuneRun run = fixture.tune("grid2.json", {"--retune", "-v"});
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    CHECK(read_bytes(victim) == victim_bytes);
    CHECK(fs::is_regular_file(fs::symlink_status(pipelines)));
    CHECK_MESSAGE(contains(run.err, pipelines.string()), run.err);
}

TEST_CASE("cache links: a dangling lock link never creates its target") {
    TuneFixture fixture;
    const fs::path file = tuned_cache_file(fixture);
    const fs::path absent = fixture.scratch.path() / "absent";
    const fs::path lock = with_suffix(file, ".lock");
    fs::remove(lock);
    fs::create_symlink(absent, lock);

    const SpvtuneRun run = fixture.tune("grid2.json", {"--retune"});
    CHECK(!fs::exists(fs::symlink_status(absent)));
    CHECK(fs::is_symlink(fs::symlink_status(lock)));
    CHECK_MESSAGE(contains(run.err, lock.string()), run.err);
}

TEST_CASE("cache links: a GLSL cache entry that is a link is replaced, never its target") {
    TuneFixture fixture;
    const SpvtuneRun first = tune_glsl(fixture);
    REQUIRE_MESSAGE(first.exit_code == 0, first.out << first.err);
    std::vector<fs::path> entries;
    for (const auto& entry : fs::directory_iterator(fixture.cache / "glsl")) {
        entries.push_back(entry.path());
    }
    REQUIRE(entries.size() == 1);
    const fs::path victim = make_victim(fixture, "victim");
    fs::remove(entries.front());
    fs::create_symlink(victim, entries.front());

    const SpvtuneRun run = tune_glsl(fixture);
    REQUIRE_MESSAGE(run.exit_code == 0, run.out << run.err);
    CHECK(read_bytes(victim) == victim_bytes);
    CHECK(fs::is_regular_file(fs::symlink_status(entries.front())));
}

TEST_CASE("cache links: nothing is deleted in a folder that glsl/ links to") {
    TuneFixture fixture;
    const fs::path elsewhere = fixture.scratch.path() / "elsewhere";
    fs::create_directories(elsewhere);
    // Named like a GLSL cache temporary and older than any live writer's.
    const fs::path bait = elsewhere / "notes.json.tmp-1-0";
    write_bytes(bait, victim_bytes);
    fs::last_write_time(bait, fs::file_time_type::clock::now() - std::chrono::hours(1));
    fs::create_directories(fixture.cache);
    fs::create_directory_symlink(elsewhere, fixture.cache / "glsl");

    const SpvtuneRun run = tune_glsl(fixture);
    REQUIRE_MESSAGE(run.exit_code == 0, run.out << run.err);
    CHECK(read_bytes(bait) == victim_bytes);
    CHECK(fs::is_symlink(fs::symlink_status(fixture.cache / "glsl")));
    CHECK_MESSAGE(contains(run.err, (fixture.cache / "glsl").string()), run.err);
}

TEST_CASE("cache links: a killed saver's pipeline cache temporaries are removed when stale") {
    TuneFixture fixture;
    const fs::path file = tuned_cache_file(fixture);
    fs::path pipelines = file;
    pipelines.replace_extension(".pipelines");
    const fs::path stale = with_suffix(pipelines, ".tmp-99999-0");
    const fs::path fresh = with_suffix(pipelines, ".tmp-99999-1");
    write_bytes(stale, "half a pipeline cache");
    write_bytes(fresh, "a live writer's pipeline cache");
    fs::last_write_time(stale, fs::file_time_type::clock::now() - std::chrono::hours(1));

    const SpvtuneRun run = fixture.tune("grid2.json", {"--retune"});
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    CHECK(!fs::exists(stale));
    CHECK(fs::exists(fresh));  // it may be a live writer's: only stale ones go
}

}  // namespace cache_links_test
