// A candidate given as GLSL source with per-point defines: each distinct set of defines is
// compiled once and reflected like a .spv file; a point that does not compile is left out with
// glslang's message, and every new field is checked like the others.

#include <doctest/doctest.h>

#include <spvtune/problem/glsl_compiler.hpp>
#include <spvtune/problem/kernel_search.hpp>

#include "cache/temp_directory.hpp"
#include "problem_test_support.hpp"

namespace glsl_candidate_test {

using namespace spvtune::problem;
using namespace spvtune::problem::testing;
using spvtune::tune::testing::TempDirectory;
using spvtune::tune::testing::write_bytes;
namespace fs = std::filesystem;

namespace {

// saxpy in GLSL; a workgroup larger than 64 hits a line that is not GLSL (line 5).
const char* const saxpy_glsl = R"glsl(#version 450
#include "pc.glsl"
layout(local_size_x = WG_SIZE) in;
#if WG_SIZE > 64
this is not glsl;
#endif
layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) buffer Y { float y[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < p.n) { y[i] += p.a * x[i]; }
}
)glsl";

// Defines of every kind: an element type, a flag, a computed float.
const char* const typed_glsl = R"glsl(#version 450
#include "pc.glsl"
layout(local_size_x = WG_SIZE) in;
#if !FLAG
#error FLAG must be 1
#endif
layout(std430, binding = 0) readonly buffer X { ELEM x[]; };
layout(std430, binding = 1) buffer Y { float y[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < p.n) { y[i] += SCALE * p.a * x[i]; }
}
)glsl";

/// A problem file in a fresh directory with the GLSL source beside it and its include in inc/.
struct GlslProblem {
    TempDirectory dir;
    fs::path file = dir.path() / "problem.json";
    Json json = saxpy_json();

    GlslProblem() {
        write_bytes(dir.path() / "saxpy.comp", saxpy_glsl);
        fs::create_directories(dir.path() / "inc");
        write_bytes(dir.path() / "inc" / "pc.glsl",
                    "layout(push_constant) uniform P { float a; uint n; } p;\n");
        Json& candidate = json["candidates"][0];
        candidate.erase("spirv");
        candidate.erase("specialization");
        candidate["glsl"] = "saxpy.comp";
        candidate["defines"] = {{"WG_SIZE", "WG"}};
        candidate["include_dirs"] = {"inc"};
    }

    Problem load(std::optional<fs::path> cache = std::nullopt) const {
        LoadOptions options;
        options.glsl_cache_dir = std::move(cache);
        return parse_problem(json.dump(), file, options);
    }

    std::vector<std::string> errors() const { return errors_of(json.dump(), file, LoadOptions()); }

    std::string error() const {
        const auto all = errors();
        std::string text;
        for (const auto& message : all) {
            text += (text.empty() ? "" : "\n") + message;
        }
        return all.size() == 1 ? text : std::to_string(all.size()) + " errors:\n" + text;
    }
};

}  // namespace

TEST_CASE("a GLSL candidate is compiled per point with its defines") {
    const GlslProblem glsl;
    const Problem problem = glsl.load();
    REQUIRE(problem.candidates.size() == 2);
    CHECK(problem.candidates[0].name == "saxpy[WG=32]");
    CHECK(problem.candidates[1].name == "saxpy[WG=64]");
    const DispatchStep& first = problem.families[problem.candidates[0].family].steps.at(0);
    const DispatchStep& second = problem.families[problem.candidates[1].family].steps.at(0);
    CHECK(&first != &second);
    CHECK(first.entry_point().workgroup_size[0].size == 32);
    CHECK(second.entry_point().workgroup_size[0].size == 64);
    CHECK(first.module->display_name() == "saxpy.comp[WG_SIZE=32]");
    CHECK(first.spirv == glsl.dir.path() / "saxpy.comp");
    CHECK(problem.candidates[problem.reference.candidates.at(0)].name == "saxpy[WG=64]");
}

TEST_CASE("define values reach the source: numbers as written, booleans as 1 or 0, strings bare") {
    GlslProblem glsl;
    write_bytes(glsl.dir.path() / "typed.comp", typed_glsl);
    glsl.json["candidates"][0]["glsl"] = "typed.comp";
    glsl.json["candidates"][0]["defines"] = {
        {"WG_SIZE", "WG"}, {"FLAG", true}, {"SCALE", "WG / 2.0"}, {"ELEM", "\"float\""}};
    const Problem problem = glsl.load();
    CHECK(problem.unavailable.empty());
    REQUIRE(problem.candidates.size() == 3);
    CHECK(problem.families[problem.candidates[0].family].steps.at(0).module->display_name() ==
          "typed.comp[ELEM=float,FLAG=1,SCALE=16.0,WG_SIZE=32]");
}

TEST_CASE("a define's text form is its text as written, with no inner quotes") {
    GlslProblem glsl;
    write_bytes(glsl.dir.path() / "typed.comp", typed_glsl);
    Json& candidate = glsl.json["candidates"][0];
    candidate["glsl"] = "typed.comp";
    candidate["defines"] = {{"WG_SIZE", "WG"},
                            {"FLAG", {{"text", "1"}}},
                            {"SCALE", "WG / 2.0"},
                            {"ELEM", {{"text", "float"}}}};
    const Problem problem = glsl.load();
    CHECK(problem.unavailable.empty());
    REQUIRE(problem.candidates.size() == 3);
    CHECK(problem.families[problem.candidates[0].family].steps.at(0).module->display_name() ==
          "typed.comp[ELEM=float,FLAG=1,SCALE=16.0,WG_SIZE=32]");

    candidate["defines"]["ELEM"] = {{"text", "float\nvoid f() {}"}};
    CHECK(contains(glsl.error(),
                   "/candidates/0/defines/ELEM/text: expected one line of macro "
                   "text, found a line break"));
    candidate["defines"]["ELEM"] = {{"text", 4}};
    CHECK(contains(glsl.error(), "/candidates/0/defines/ELEM/text: expected a string"));
    candidate["defines"]["ELEM"] = {{"txt", "float"}};
    CHECK(contains(glsl.error(), "/candidates/0/defines/ELEM/txt: unknown field 'txt'"));
}

TEST_CASE("a point whose GLSL does not compile is left out with the file, line and defines") {
    const GlslProblem glsl;
    const Problem problem = glsl.load();
    REQUIRE(problem.unavailable.size() == 1);
    CHECK(problem.unavailable[0].name == "saxpy[WG=128]");
    const std::string& reason = problem.unavailable[0].reason;
    CHECK_MESSAGE(contains(reason, "GLSL 'saxpy.comp' does not compile with defines WG_SIZE=128: "),
                  reason);
    CHECK_MESSAGE(contains(reason, "saxpy.comp:5: "), reason);
    CHECK_FALSE(contains(reason, "\n"));  // check prints one line per point
    CHECK(problem.find_candidate("saxpy[WG=128]") == nullptr);
}

TEST_CASE("a GLSL candidate whose every point fails, or whose file is missing, is an error") {
    GlslProblem glsl;
    glsl.json["candidates"][0]["grid"]["WG"] = {128, 256};
    glsl.json["reference"]["candidate"] = "saxpy[WG=128]";
    CHECK(contains(glsl.errors().at(0),
                   "/candidates/0/glsl: no point of this candidate compiles; e.g. GLSL "
                   "'saxpy.comp' does not compile with defines WG_SIZE=128: "));

    GlslProblem missing;
    missing.json["candidates"][0]["glsl"] = "nowhere.comp";
    CHECK(contains(missing.error(),
                   "/candidates/0/glsl: cannot find GLSL file 'nowhere.comp'; looked in:\n    " +
                       (missing.dir.path() / "nowhere.comp").string()));
}

TEST_CASE("a missing include is a compile error naming the include, and include_dirs must exist") {
    GlslProblem glsl;
    glsl.json["candidates"][0].erase("include_dirs");
    CHECK(contains(glsl.errors().at(0), "saxpy.comp:2: "));
    CHECK(contains(glsl.errors().at(0), "pc.glsl"));

    glsl.json["candidates"][0]["include_dirs"] = {"inc", "missing"};
    CHECK(contains(glsl.error(),
                   "/candidates/0/include_dirs/1: include directory 'missing' is "
                   "not a directory"));
}

TEST_CASE("the GLSL fields are checked with the JSON pointer of the fault") {
    GlslProblem glsl;
    Json& candidate = glsl.json["candidates"][0];
    candidate["defnes"] = candidate["defines"];
    CHECK(contains(glsl.error(),
                   "/candidates/0/defnes: unknown field 'defnes' (did you mean 'defines'?)"));
    candidate.erase("defnes");

    candidate["defines"] = {{"WG_SIZE", "pass"}};
    CHECK(contains(glsl.error(),
                   "/candidates/0/defines/WG_SIZE: bad expression: unknown variable "
                   "'pass'; a define may use the key and grid parameters and let names: n, WG"));
    candidate["defines"] = {{"1BAD", "WG"}};
    CHECK(contains(glsl.error(), "/candidates/0/defines/1BAD: "));
    candidate["defines"] = {"WG"};
    CHECK(contains(glsl.error(), "/candidates/0/defines: expected an object"));
    candidate["defines"] = {{"WG_SIZE", "WG"}};

    candidate["glsl_target"] = "vulkan9";
    CHECK(contains(glsl.error(),
                   "/candidates/0/glsl_target: expected \"vulkan1.0\", "
                   "\"vulkan1.1\", \"vulkan1.2\" or \"vulkan1.3\""));
    candidate["glsl_target"] = "vulkan1.3";
    CHECK(glsl.errors().empty());

    candidate["spirv"] = "saxpy.spv";
    CHECK(contains(glsl.error(),
                   "/candidates/0/glsl: a candidate is either \"spirv\" or "
                   "\"glsl\"; this one gives both"));
}

TEST_CASE("a layer's spirv replaces an earlier glsl with its fields, and the other way round") {
    GlslProblem glsl;
    Json candidate = glsl.json["candidates"][0];
    glsl.json["defaults"] = {
        {"glsl", "saxpy.comp"}, {"defines", {{"WG_SIZE", "64"}}}, {"include_dirs", {"inc"}}};
    candidate.erase("glsl");
    candidate.erase("defines");
    candidate.erase("include_dirs");
    Json spirv = candidate;
    spirv["name"] = "prebuilt";
    spirv["spirv"] = "saxpy.spv";
    spirv["specialization"] = {{"0", "WG"}};
    glsl.json["candidates"] = {candidate, spirv};
    const Problem problem = [&] {
        LoadOptions options;
        options.kernel_dirs = {spvtune::problem::builtin_kernel_dir()};
        return parse_problem(glsl.json.dump(), glsl.file, options);
    }();
    CHECK(problem.candidates.size() == 6);
    CHECK(problem.find_candidate("prebuilt[WG=128]") != nullptr);
    CHECK(problem.find_candidate("saxpy[WG=128]") != nullptr);  // WG_SIZE is 64 for all

    GlslProblem stray;
    stray.json["candidates"][0].erase("glsl");
    stray.json["candidates"][0]["spirv"] = "saxpy.spv";
    stray.json["candidates"][0]["specialization"] = {{"0", "WG"}};
    const auto errors = stray.errors();
    CHECK(contains(errors.at(0),
                   "/candidates/0/defines: 'defines' belongs to a \"glsl\" "
                   "candidate; this one gives \"spirv\""));
}

TEST_CASE("compiled GLSL is kept in the cache directory: a second load runs no compile") {
    const GlslProblem glsl;
    TempDirectory cache;
    (void)glsl.load(cache.path());
    const auto before = glsl_compile_count();
    const Problem again = glsl.load(cache.path());
    // The failing point compiles again (errors are not kept); the two good ones come from disk.
    CHECK(glsl_compile_count() - before == 1);
    CHECK(again.candidates.size() == 2);
}

TEST_CASE("each GLSL step is compiled per point, and a point is left out when one step fails") {
    GlslProblem glsl;
    Json step = glsl.json["candidates"][0];
    step.erase("name");
    step.erase("grid");
    Json fixed = step;
    fixed["defines"]["WG_SIZE"] = 32;
    glsl.json["candidates"].push_back(
        {{"name", "twice"}, {"grid", {{"WG", {32, 64, 128}}}}, {"steps", {step, fixed}}});
    const Problem problem = glsl.load();
    REQUIRE(problem.candidates.size() == 4);
    CHECK(problem.candidates[2].name == "twice[WG=32]");
    CHECK(problem.candidates[3].name == "twice[WG=64]");
    REQUIRE(problem.unavailable.size() == 2);
    CHECK(problem.unavailable[1].name == "twice[WG=128]");
    CHECK(contains(problem.unavailable[1].reason, "does not compile with defines WG_SIZE=128"));
    const auto module_name = [&problem](std::size_t candidate, std::size_t step) {
        return problem.families[problem.candidates[candidate].family]
            .steps.at(step)
            .module->display_name();
    };
    CHECK(module_name(2, 0) == "saxpy.comp[WG_SIZE=32]");
    CHECK(module_name(3, 0) == "saxpy.comp[WG_SIZE=64]");
    CHECK(module_name(2, 1) == "saxpy.comp[WG_SIZE=32]");
    CHECK(module_name(3, 1) == "saxpy.comp[WG_SIZE=32]");
}

}  // namespace glsl_candidate_test
