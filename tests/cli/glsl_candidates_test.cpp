// GLSL candidates end to end: check lists a point that does not compile with glslang's message,
// tune runs the others, and a second tune takes the compiled SPIR-V from the cache directory
// without compiling (its entries are not rewritten: same inode and modification time), and
// tune shows the points left out.

#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <sys/stat.h>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "cache/temp_directory.hpp"
#include "cli/spvtune_run.hpp"

namespace glsl_candidates_test {

using namespace spvtune::tune::testing;
using spvtune::test::contains;
using spvtune::test::run_spvtune;
namespace fs = std::filesystem;

namespace {

// y = 2 * x; a workgroup of 128 reaches a line that is not GLSL (line 4).
const char* const scale_glsl = R"glsl(#version 450
layout(local_size_x = WG_SIZE) in;
#if WG_SIZE == 128
not glsl at all;
#endif
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { float y[]; };
layout(push_constant) uniform Params { uint n; } params;
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < params.n) { y[i] = 2.0 * x[i]; }
}
)glsl";

const char* const scale_problem = R"json({
    "name": "glsl-scale",
    "parameters": {"n": {"type": "int"}},
    "keys": {"list": [{"n": 4096}]},
    "buffers": {
        "x": {"type": "f32", "count": "n", "init": {"random": {"seed": 1}}, "role": "input"},
        "y": {"type": "f32", "count": "n", "role": "output"}
    },
    "candidates": [{
        "name": "scale", "glsl": "scale.comp", "grid": {"WG": [1, 64, 128]},
        "defines": {"WG_SIZE": "WG"}, "workgroups": ["ceil_div(n, WG)", 1, 1],
        "push_constants": [{"type": "u32", "value": "n"}], "bindings": {"0": "x", "1": "y"}
    }],
    "reference": {"candidate": "scale[WG=1]", "compare": {"y": {"exact": true}}}
})json";

/// inode and modification time of every file in `dir`, by name.
std::map<std::string, std::pair<ino_t, std::int64_t>> stamps(const fs::path& dir) {
    std::map<std::string, std::pair<ino_t, std::int64_t>> found;
    for (const auto& entry : fs::directory_iterator(dir)) {
        struct stat info {};
        REQUIRE(::stat(entry.path().c_str(), &info) == 0);
        found[entry.path().filename().string()] = {
            info.st_ino, info.st_mtim.tv_sec * 1'000'000'000LL + info.st_mtim.tv_nsec};
    }
    return found;
}

}  // namespace

TEST_CASE("check lists a GLSL point that does not compile, with the file, line and defines") {
    TempDirectory scratch;
    TempDirectory cache;
    write_bytes(scratch.path() / "scale.comp", scale_glsl);
    write_bytes(scratch.path() / "scale.json", scale_problem);
    ::setenv("SPVTUNE_CACHE_DIR", cache.path().c_str(), 1);
    const auto run = run_spvtune(scratch, {"check", (scratch.path() / "scale.json").string()});
    ::unsetenv("SPVTUNE_CACHE_DIR");
    CHECK_MESSAGE(run.exit_code == 0, run.out << run.err);
    CHECK_MESSAGE(contains(run.out,
                           "left out scale[WG=128]: GLSL 'scale.comp' does not compile "
                           "with defines WG_SIZE=128: " +
                               (scratch.path() / "scale.comp").string() + ":4: "),
                  run.out);
    CHECK(contains(run.out, "key n=4096: 2 of 2 candidates"));
    CHECK(fs::is_directory(cache.path() / "glsl"));  // check keeps what it compiled
}

TEST_CASE("a second tune takes compiled GLSL from the cache directory without compiling") {
    TempDirectory scratch;
    TempDirectory cache;
    write_bytes(scratch.path() / "scale.comp", scale_glsl);
    write_bytes(scratch.path() / "scale.json", scale_problem);
    const std::vector<std::string> tune = {
        "tune",          (scratch.path() / "scale.json").string(),
        "--cache-dir",   cache.path().string(),
        "--samples",     "2",
        "--min-samples", "2",
        "--warmup",      "0",
        "--retune"};
    const auto first = run_spvtune(scratch, tune);
    REQUIRE_MESSAGE(first.exit_code == 0, first.out << first.err);
    const fs::path entries = cache.path() / "glsl";
    const auto before = stamps(entries);
    CHECK(before.size() == 2);  // WG=1 and WG=64; a compile error is not kept

    const auto second = run_spvtune(scratch, tune);
    REQUIRE_MESSAGE(second.exit_code == 0, second.out << second.err);
    CHECK(stamps(entries) == before);

    // An edited source misses: one more entry per point that compiles.
    write_bytes(scratch.path() / "scale.comp", std::string(scale_glsl) + "// edited\n");
    REQUIRE(run_spvtune(scratch, tune).exit_code == 0);
    CHECK(stamps(entries).size() == 4);
}

TEST_CASE("tune shows the points left out, on the console and in --json") {
    TempDirectory scratch;
    TempDirectory cache;
    write_bytes(scratch.path() / "scale.comp", scale_glsl);
    write_bytes(scratch.path() / "scale.json", scale_problem);
    const fs::path report = scratch.path() / "report.json";
    const auto run =
        run_spvtune(scratch, {"tune", (scratch.path() / "scale.json").string(), "--cache-dir",
                              cache.path().string(), "--samples", "2", "--min-samples", "2",
                              "--warmup", "0", "--json", report.string()});
    REQUIRE_MESSAGE(run.exit_code == 0, run.out << run.err);
    const std::string reason = "GLSL 'scale.comp' does not compile with defines WG_SIZE=128: " +
                               (scratch.path() / "scale.comp").string() + ":4: ";
    CHECK_MESSAGE(contains(run.out, "glsl-scale: left out scale[WG=128]: " + reason), run.out);
    const auto problem = nlohmann::json::parse(read_bytes(report)).at("problems").at(0);
    REQUIRE(problem.at("left_out").size() == 1);
    CHECK(problem.at("left_out")[0].at("name") == "scale[WG=128]");
    CHECK(contains(problem.at("left_out")[0].at("reason").get<std::string>(), reason));
}

}  // namespace glsl_candidates_test
