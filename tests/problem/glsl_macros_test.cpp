// The macros real shaders need: function-like macros as define keys (`"SCALE(v)": "((v) * 4.0)"`,
// the value being macro text) and a `preamble` of longer macro text, inline or from a file.

#include <doctest/doctest.h>

#include "cache/temp_directory.hpp"
#include "problem_test_support.hpp"

namespace glsl_macros_test {

using namespace spvtune::problem;
using namespace spvtune::problem::testing;
using spvtune::tune::testing::TempDirectory;
using spvtune::tune::testing::write_bytes;
namespace fs = std::filesystem;

namespace {

// saxpy that compiles only with SCALE(v) from the defines and MAD(a, b, c) and ROW_PAD from the
// preamble; each missing macro is an #error, so a module means every one arrived.
const char* const macro_glsl = R"glsl(#version 450
layout(local_size_x = WG_SIZE) in;
#if !defined(SCALE) || !defined(MAD) || ROW_PAD != 4
#error the macros did not arrive
#endif
layout(push_constant) uniform P { float a; uint n; } p;
layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) buffer Y { float y[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < p.n) { y[i] = MAD(SCALE(p.a), x[i], y[i]); }
}
)glsl";

const char* const preamble_text = "#define MAD(a, b, c) ((a) * (b) + (c))\n#define ROW_PAD 4\n";

struct MacroProblem {
    TempDirectory dir;
    fs::path file = dir.path() / "problem.json";
    Json json = saxpy_json();

    MacroProblem() {
        write_bytes(dir.path() / "macros.comp", macro_glsl);
        Json& candidate = json["candidates"][0];
        candidate.erase("spirv");
        candidate.erase("specialization");
        candidate["glsl"] = "macros.comp";
        candidate["defines"] = {{"WG_SIZE", "WG"}, {"SCALE( v )", "((v) * 0.25)"}};
        candidate["preamble"] = preamble_text;
    }

    Problem load() const { return parse_problem(json.dump(), file, LoadOptions()); }
    std::string error() const {
        const auto all = errors_of(json.dump(), file, LoadOptions());
        std::string text;
        for (const auto& message : all) {
            text += (text.empty() ? "" : "\n") + message;
        }
        return text;
    }
};

}  // namespace

TEST_CASE("a function-like macro and an inline preamble reach the source") {
    const MacroProblem macros;
    const Problem problem = macros.load();
    CHECK(problem.unavailable.empty());
    REQUIRE(problem.candidates.size() == 3);
    // The macro's name is written as the preprocessor needs it, without the spaces.
    CHECK(problem.families[problem.candidates[0].family].steps.at(0).module->display_name() ==
          "macros.comp[SCALE(v)=((v) * 0.25),WG_SIZE=32]");
}

TEST_CASE("a preamble may come from a file, found like the source") {
    MacroProblem macros;
    write_bytes(macros.dir.path() / "project_macros.glsl", preamble_text);
    macros.json["candidates"][0]["preamble"] = {{"file", "project_macros.glsl"}};
    const Problem problem = macros.load();
    CHECK(problem.unavailable.empty());
    CHECK(problem.candidates.size() == 3);
}

TEST_CASE("without the preamble the kernel does not compile, so the preamble is what made it") {
    MacroProblem macros;
    macros.json["candidates"][0].erase("preamble");
    CHECK(contains(macros.error(), "the macros did not arrive"));
}

TEST_CASE("macro names, macro text and preambles are checked where they are written") {
    MacroProblem macros;
    Json& candidate = macros.json["candidates"][0];
    candidate["defines"] = {{"WG_SIZE", "WG"}, {"SCALE(1v)", "((v) * 0.25)"}};
    CHECK(contains(macros.error(),
                   "/candidates/0/defines/SCALE(1v): expected a function-like macro name such as "
                   "'SCALE(v)' or 'MAD(a, b, c)'"));
    candidate["defines"] = {{"WG_SIZE", "WG"}, {"SCALE(v)", 4}};
    CHECK(contains(macros.error(), "/candidates/0/defines/SCALE(v): expected a string"));
    candidate["defines"] = {{"WG_SIZE", "WG"}, {"SCALE(v)", "(v)\n* 2"}};
    CHECK(contains(macros.error(),
                   "/candidates/0/defines/SCALE(v): expected one line of macro "
                   "text, found a line break"));
    candidate["defines"] = {{"WG_SIZE", "WG"}, {"SCALE(v)", "((v) * 0.25)"}};
    candidate["preamble"] = 7;
    CHECK(contains(macros.error(), "/candidates/0/preamble: expected the preamble's text"));
    candidate["preamble"] = {{"file", "nowhere.glsl"}};
    CHECK(contains(macros.error(), "/candidates/0/preamble/file:"));
    CHECK(contains(macros.error(), "nowhere.glsl"));
}

TEST_CASE("a preamble belongs to GLSL candidates") {
    Json json = saxpy_json();
    json["candidates"][0]["preamble"] = preamble_text;
    CHECK(contains(error_of(json), "'preamble' belongs to a \"glsl\" candidate"));
}

}  // namespace glsl_macros_test
