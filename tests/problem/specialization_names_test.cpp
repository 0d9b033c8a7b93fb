// A specialization constant is known by every name the module gives it: glslang names it after
// its GLSL declaration and again after each `const uint alias = K;`. A fault every grid point
// of a GLSL candidate shares is one message that counts the points.

#include <doctest/doctest.h>

#include "cache/temp_directory.hpp"
#include "problem_test_support.hpp"

namespace specialization_names_test {

using namespace spvtune::problem;
using namespace spvtune::problem::testing;
using spvtune::tune::testing::TempDirectory;
using spvtune::tune::testing::write_bytes;

namespace {

// The shape of the issue's matmul: strideA and strideC alias the spec constants K and N.
const char* const alias_glsl = R"glsl(#version 450
layout(local_size_x = WG_SIZE) in;
layout(constant_id = 0) const uint M = 1;
layout(constant_id = 1) const uint N = 1;
layout(constant_id = 2) const uint K = 1;
const uint strideA = K;
const uint strideC = N;
layout(push_constant) uniform P { float a; uint n; } p;
layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) buffer Y { float y[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < p.n) { y[i] += p.a * x[i] * float(M + strideA + strideC); }
}
)glsl";

struct AliasProblem {
    TempDirectory dir;
    Json json = saxpy_json();

    explicit AliasProblem(const Json& specialization) {
        write_bytes(dir.path() / "alias.comp", alias_glsl);
        Json& candidate = json["candidates"][0];
        candidate.erase("spirv");
        candidate["glsl"] = "alias.comp";
        candidate["defines"] = {{"WG_SIZE", "WG"}};
        candidate["specialization"] = specialization;
    }

    std::vector<std::string> errors() const {
        return errors_of(json.dump(), dir.path() / "problem.json", LoadOptions());
    }
};

}  // namespace

TEST_CASE("a specialization constant is found by the name of an alias glslang gives it") {
    const AliasProblem aliased(Json{{"M", 3}, {"strideA", 5}, {"N", 7}});
    const Problem problem =
        parse_problem(aliased.json.dump(), aliased.dir.path() / "problem.json", LoadOptions());
    const auto& entries = problem.families.at(0).steps.at(0).specialization;
    REQUIRE(entries.size() == 3);
    CHECK(entries[0].id == 0);
    CHECK(entries[1].id == 1);
    CHECK(entries[2].id == 2);  // strideA is K's alias
    CHECK(entries[2].value.expression.text() == "5");

    // K and its alias strideA are one constant: giving both is giving it twice.
    const AliasProblem twice(Json{{"K", 3}, {"strideA", 5}});
    const auto errors = twice.errors();
    REQUIRE(!errors.empty());
    CHECK(contains(errors.front(), "is given twice"));
}

TEST_CASE("an unknown specialization name is reported once for all the grid points it hit") {
    const AliasProblem unknown(Json{{"Q", 1}});
    const auto errors = unknown.errors();
    REQUIRE(errors.size() == 1);
    CHECK(contains(errors.front(), "/candidates/0/specialization/Q: alias.comp"));
    CHECK(contains(errors.front(), "declares no specialization constant named 'Q'"));
    CHECK(contains(errors.front(), "1 'N' (also 'strideC') (uint32)"));
    CHECK(contains(errors.front(), "2 'K' (also 'strideA') (uint32)"));
    CHECK(contains(errors.front(), "(at 3 grid points)"));
}

}  // namespace specialization_names_test
