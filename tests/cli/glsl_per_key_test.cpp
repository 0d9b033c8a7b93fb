// A GLSL candidate whose define is a key parameter, end to end: tune compiles it per key (in the
// worker process too) and its outputs check out at each key; a key where it does not compile
// skips it for that key only, with glslang's message, in check and in tune; --key compiles only
// the keys it selects.

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "cache/temp_directory.hpp"
#include "cli/spvtune_run.hpp"

namespace glsl_per_key_test {

using namespace spvtune::tune::testing;
using spvtune::test::contains;
using spvtune::test::run_spvtune;
namespace fs = std::filesystem;

namespace {

// y = 2 * x over the first N elements, N baked in at compile time; above 3000 it refuses
// (line 4). Were one key's module used for a larger key, the elements past its N would stay
// unwritten and the output check would fail.
const char* const baked_glsl = R"glsl(#version 450
layout(local_size_x = 64) in;
#if N > 3000
#error N is too large for this kernel
#endif
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { float y[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < N) { y[i] = 2.0 * x[i]; }
}
)glsl";

// The reference: the same with n as a push constant.
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

const char* const baked_problem = R"json({
    "name": "glsl-baked",
    "parameters": {"n": {"type": "int"}},
    "keys": {"list": [{"n": 1000}, {"n": 2048}, {"n": 4096}]},
    "buffers": {
        "x": {"type": "f32", "count": "n", "init": {"random": {"seed": 1}}, "role": "input"},
        "y": {"type": "f32", "count": "n", "role": "output"}
    },
    "defaults": {"workgroups": ["ceil_div(n, 64)", 1, 1], "bindings": {"0": "x", "1": "y"}},
    "candidates": [
        {"name": "scale", "glsl": "scale.comp", "push_constants": [{"type": "u32", "value": "n"}]},
        {"name": "baked", "glsl": "baked.comp", "defines": {"N": "n"}}
    ],
    "reference": {"candidate": "scale", "compare": {"y": {"exact": true}}}
})json";

struct BakedFiles {
    TempDirectory scratch;
    TempDirectory cache;
    fs::path problem = scratch.path() / "baked.json";

    BakedFiles() {
        write_bytes(scratch.path() / "baked.comp", baked_glsl);
        write_bytes(scratch.path() / "scale.comp", scale_glsl);
        write_bytes(problem, baked_problem);
    }

    std::vector<std::string> tune(std::vector<std::string> extra = {}) const {
        std::vector<std::string> args = {
            "tune",          problem.string(),
            "--cache-dir",   cache.path().string(),
            "--samples",     "2",
            "--min-samples", "2",
            "--warmup",      "0",
            "--json",        (scratch.path() / "report.json").string()};
        args.insert(args.end(), extra.begin(), extra.end());
        return args;
    }

    nlohmann::json keys() const {
        return nlohmann::json::parse(read_bytes(scratch.path() / "report.json"))
            .at("problems")
            .at(0)
            .at("keys");
    }

    std::size_t compiled_entries() const {
        std::size_t count = 0;
        for (const auto& entry : fs::directory_iterator(cache.path() / "glsl")) {
            count += entry.path().extension() == ".json" ? 1 : 0;
        }
        return count;
    }

    /// "GLSL 'baked.comp' does not compile for key n=4096 ...", as check and tune give it.
    std::string compile_error() const {
        return "GLSL 'baked.comp' does not compile for key n=4096 with defines N=4096: " +
               (scratch.path() / "baked.comp").string() +
               ":4: '#error' : N is too large for this kernel";
    }
};

const nlohmann::json& candidate(const nlohmann::json& key, const std::string& name) {
    for (const auto& entry : key.at("candidates")) {
        if (entry.at("name") == name) {
            return entry;
        }
    }
    FAIL("no candidate " << name << " in " << key.dump());
    throw std::logic_error("unreachable");
}

/// A candidate that ran with outputs that match the reference's, so it was ranked.
void ranked(const nlohmann::json& candidate) {
    INFO(candidate.dump());
    CHECK(candidate.contains("rank"));
    const std::string status = candidate.at("status");
    CHECK((status == "winner" || status == "tied" || status == "ok"));
}

}  // namespace

TEST_CASE("tune compiles a define of a key parameter per key and checks each key's outputs") {
    const BakedFiles files;
    // The worker compiles into tune's --cache-dir too, not into the default cache directory.
    const TempDirectory default_cache;
    ::setenv("SPVTUNE_CACHE_DIR", default_cache.path().c_str(), 1);
    const auto run = run_spvtune(files.scratch, files.tune());
    ::unsetenv("SPVTUNE_CACHE_DIR");
    REQUIRE_MESSAGE(run.exit_code == 0, run.out << run.err);
    CHECK_FALSE(fs::exists(default_cache.path() / "glsl"));
    const auto keys = files.keys();
    REQUIRE(keys.size() == 3);
    for (std::size_t k = 0; k < 2; ++k) {
        INFO(keys[k].dump());
        CHECK(keys[k].at("status") == "tuned");
        ranked(candidate(keys[k], "baked"));
    }
    // n=4096 does not compile: baked is skipped there with glslang's message; scale runs.
    const auto& skipped = candidate(keys[2], "baked");
    CHECK(skipped.at("status") == "skipped");
    CHECK_MESSAGE(contains(skipped.at("reason").get<std::string>(), files.compile_error()),
                  skipped.dump());
    CHECK(keys[2].at("winner") == "scale");
    CHECK_MESSAGE(contains(run.out, "skipped: " + files.compile_error()), run.out);
    // One module for scale, one per key that compiles for baked (errors are not kept).
    CHECK(files.compiled_entries() == 3);
}

TEST_CASE("check lists a key where a define of a key parameter does not compile") {
    const BakedFiles files;
    const auto run = run_spvtune(files.scratch, {"check", files.problem.string(), "--cache-dir",
                                                 files.cache.path().string()});
    CHECK_MESSAGE(run.exit_code == 0, run.out << run.err);
    CHECK(contains(run.out, "key n=1000: 2 of 2 candidates"));
    CHECK(contains(run.out, "key n=4096: 1 of 2 candidates"));
    CHECK_MESSAGE(contains(run.out, "skipped baked: " + files.compile_error()), run.out);
    CHECK_FALSE(contains(run.out, "left out"));
}

TEST_CASE("tune --key compiles a define of a key parameter only for the keys it selects") {
    const BakedFiles files;
    const auto run = run_spvtune(files.scratch, files.tune({"--key", "n=2048", "--in-process"}));
    REQUIRE_MESSAGE(run.exit_code == 0, run.out << run.err);
    REQUIRE(files.keys().size() == 1);
    ranked(candidate(files.keys()[0], "baked"));
    CHECK(files.compiled_entries() == 2);  // scale, and baked for n=2048 only
}

}  // namespace glsl_per_key_test
