// A GLSL candidate whose defines use key parameters: compiled when a key is resolved, once per
// distinct set of define values, checked against its step like any module; a key whose defines
// do not compile (or give a module that does not fit) skips the candidate for that key only,
// and the candidate-list checksum does not depend on the keys.

#include <doctest/doctest.h>

#include <spvtune/problem/glsl_compiler.hpp>
#include <spvtune/problem/problem_cache_layout.hpp>
#include <spvtune/problem/resolve.hpp>

#include "cache/temp_directory.hpp"
#include "problem_test_support.hpp"

namespace glsl_per_key_test {

using namespace spvtune::problem;
using namespace spvtune::problem::testing;
using spvtune::tune::testing::TempDirectory;
using spvtune::tune::testing::write_bytes;
namespace fs = std::filesystem;

namespace {

// y += a * x over the first N elements, N baked in; an N above 1000 is refused by #error
// (line 5), and an N of 96 declares a push-constant block of another size (line 9).
const char* const baked_glsl = R"glsl(#version 450
#include "wg.glsl"
layout(local_size_x = WG_SIZE) in;
#if N > 1000
#error N is too large for this kernel
#endif
layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) buffer Y { float y[]; };
#if N == 96
layout(push_constant) uniform P { float a; uint n; uint extra; } p;
#else
layout(push_constant) uniform P { float a; uint n; } p;
#endif
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < N) { y[i] += p.a * x[i]; }
}
)glsl";

/// saxpy as a GLSL candidate with N = n, next to a problem file in a fresh directory.
struct BakedProblem {
    TempDirectory dir;
    fs::path file = dir.path() / "problem.json";
    Json json = saxpy_json();

    BakedProblem() {
        write_bytes(dir.path() / "baked.comp", baked_glsl);
        write_bytes(dir.path() / "wg.glsl", "#define WG_SIZE WG\n");
        json["keys"]["list"] = {{{"n", 64}}, {{"n", 128}}, {{"n", 2000}}};
        Json& candidate = json["candidates"][0];
        candidate.erase("spirv");
        candidate.erase("specialization");
        candidate["glsl"] = "baked.comp";
        candidate["defines"] = {{"N", "n"}, {"WG", "WG"}};
    }

    Problem load() const { return parse_problem(json.dump(), file, LoadOptions()); }
};

/// Candidate `index` of `problem` resolved for n = `n`.
spvtune::tune::Result<ResolvedCandidate> resolve(const Problem& problem, std::int64_t n,
                                                 std::size_t index = 0) {
    const ProblemKey key({{"n", n}});
    auto buffers = resolve_buffers(problem, key);
    REQUIRE(buffers);
    return resolve_candidate(problem, key, index, buffers.value());
}

std::uint64_t checksum(const Problem& problem) {
    return problem_cache_layout(problem, spvtune::tune::AutotuneLevel::balanced).checksum;
}

}  // namespace

TEST_CASE("a define of a key parameter compiles the candidate per key, once per define values") {
    const BakedProblem baked;
    const auto before_load = glsl_compile_count();
    const Problem problem = baked.load();
    CHECK(glsl_compile_count() == before_load);  // nothing is known to compile before a key
    REQUIRE(problem.candidates.size() == 3);
    const DispatchStep& step = problem.families[problem.candidates[0].family].steps.at(0);
    CHECK(step.module == nullptr);
    CHECK(step.per_key_glsl != nullptr);
    CHECK(step.spirv == baked.dir.path() / "baked.comp");

    const auto small = resolve(problem, 64);
    REQUIRE_MESSAGE(small, small.error());
    const auto large = resolve(problem, 128);
    REQUIRE_MESSAGE(large, large.error());
    const auto& small_module = small.value().dispatches.at(0).module;
    const auto& large_module = large.value().dispatches.at(0).module;
    CHECK(small_module->display_name() == "baked.comp[N=64,WG=32]");
    CHECK(large_module->display_name() == "baked.comp[N=128,WG=32]");
    CHECK(small_module->content_hash() != large_module->content_hash());
    CHECK(small.value().key == ProblemKey({{"n", std::int64_t{64}}}));
    // The step is checked and specialised as a loaded module would be.
    CHECK(small.value().dispatches.at(0).workgroup_size[0] == 32);
    CHECK(small.value().dispatches.at(0).push_constants.size() == 8);

    // The same define values again: the module compiled before, not glslang.
    const auto before = glsl_compile_count();
    const auto again = resolve(problem, 64);
    REQUIRE(again);
    CHECK(glsl_compile_count() == before);
    CHECK(again.value().dispatches.at(0).module == small_module);
}

TEST_CASE("a key whose defines do not compile skips the candidate for that key, with the reason") {
    const BakedProblem baked;
    const Problem problem = baked.load();
    const auto skipped = resolve(problem, 2000);
    REQUIRE_FALSE(skipped);
    const std::string& reason = skipped.error();
    CHECK_MESSAGE(contains(reason,
                           "GLSL 'baked.comp' does not compile for key n=2000 with "
                           "defines N=2000, WG=32: "),
                  reason);
    CHECK_MESSAGE(contains(reason, "baked.comp:5: "), reason);
    CHECK_MESSAGE(contains(reason, "N is too large for this kernel"), reason);
    CHECK_FALSE(contains(reason, "\n"));
    CHECK(resolve(problem, 64));  // the other keys go on
}

TEST_CASE("a module compiled for a key is checked against the step, and a misfit skips the key") {
    const BakedProblem baked;
    const Problem problem = baked.load();
    const auto skipped = resolve(problem, 96);
    REQUIRE_FALSE(skipped);
    CHECK_MESSAGE(
        contains(skipped.error(),
                 "GLSL 'baked.comp' compiled for key n=96 with defines N=96, WG=32 does not fit "
                 "its step: /candidates/0/push_constants: push constants too small: 8 bytes "
                 "given, the block of baked.comp[N=96,WG=32]:main is 12 bytes"),
        skipped.error());
}

TEST_CASE("a define that does not evaluate for a key skips the candidate with its place") {
    BakedProblem baked;
    baked.json["candidates"][0]["defines"]["N"] = "1000 / (n - 64)";
    const Problem problem = baked.load();
    const auto skipped = resolve(problem, 64);
    REQUIRE_FALSE(skipped);
    CHECK_MESSAGE(contains(skipped.error(), "/candidates/0/defines/N: '1000 / (n - 64)': "),
                  skipped.error());
    CHECK(resolve(problem, 128));
}

TEST_CASE("the checksum of a candidate compiled per key covers its sources, not its keys") {
    BakedProblem baked;
    const std::uint64_t first = checksum(baked.load());

    baked.json["keys"]["list"] = {{{"n", 256}}};
    CHECK(checksum(baked.load()) == first);

    BakedProblem expression;
    expression.json["candidates"][0]["defines"]["N"] = "n - 0";
    CHECK(checksum(expression.load()) != first);

    BakedProblem source;
    write_bytes(source.dir.path() / "baked.comp", std::string(baked_glsl) + "// edited\n");
    CHECK(checksum(source.load()) != first);

    BakedProblem include;
    write_bytes(include.dir.path() / "wg.glsl", "#define WG_SIZE (WG)\n");
    CHECK(checksum(include.load()) != first);

    BakedProblem target;
    target.json["candidates"][0]["glsl_target"] = "vulkan1.2";
    CHECK(checksum(target.load()) != first);
}

TEST_CASE("each GLSL step of a candidate with a define of a key parameter is compiled per key") {
    BakedProblem baked;
    Json step = baked.json["candidates"][0];
    step.erase("name");
    step.erase("grid");
    step["defines"]["WG"] = 32;
    step["workgroups"][0] = "ceil_div(n, 32)";
    Json fixed = step;
    fixed["defines"]["N"] = 64;
    baked.json["candidates"].push_back({{"name", "twice"}, {"steps", {fixed, step}}});
    const Problem problem = baked.load();
    const std::size_t twice = problem.candidates.size() - 1;
    REQUIRE(problem.candidates[twice].name == "twice");
    for (const DispatchStep& each : problem.families[problem.candidates[twice].family].steps) {
        CHECK(each.per_key_glsl != nullptr);
    }
    const auto resolved = resolve(problem, 128, twice);
    REQUIRE_MESSAGE(resolved, resolved.error());
    CHECK(resolved.value().dispatches.at(0).module->display_name() == "baked.comp[N=64,WG=32]");
    CHECK(resolved.value().dispatches.at(1).module->display_name() == "baked.comp[N=128,WG=32]");
}

TEST_CASE("a module compiled for a key is kept in the GLSL cache: the next load compiles nothing") {
    const BakedProblem baked;
    TempDirectory cache;
    LoadOptions options;
    options.glsl_cache_dir = cache.path();
    const auto load = [&] { return parse_problem(baked.json.dump(), baked.file, options); };
    REQUIRE(resolve(load(), 64));
    const auto before = glsl_compile_count();
    REQUIRE(resolve(load(), 64));
    CHECK(glsl_compile_count() == before);
    REQUIRE(resolve(load(), 128));  // other define values: an entry of their own
    CHECK(glsl_compile_count() == before + 1);
}

}  // namespace glsl_per_key_test
