#include <filesystem>

#include <doctest/doctest.h>

#include <spvtune/problem/kernel_search.hpp>

#include "cache/temp_directory.hpp"
#include "problem_test_support.hpp"

namespace spirv_template_test {

using namespace spvtune::problem;
using namespace spvtune::problem::testing;
namespace fs = std::filesystem;

// Grid parameters in a `spirv` path: one file per point, built beforehand (say, with a different
// #define each); a point whose file is missing is left out with the reason, the others go on.

namespace {

// saxpy over copies of the shipped kernel named saxpy_32.spv and saxpy_64.spv, in `dir`; the
// grid also has WG=128, whose file is missing.
Json templated_saxpy(const fs::path& dir) {
    const fs::path kernel = spvtune::problem::builtin_kernel_dir() / "saxpy.spv";
    fs::copy_file(kernel, dir / "saxpy_32.spv");
    fs::copy_file(kernel, dir / "saxpy_64.spv");
    Json json = saxpy_json();
    json["candidates"][0]["spirv"] = (dir / "saxpy_{WG}.spv").string();
    return json;
}

}  // namespace

TEST_CASE("a spirv path with grid parameters loads each point's own file") {
    spvtune::tune::testing::TempDirectory dir;
    const Problem problem = parse(templated_saxpy(dir.path()));
    REQUIRE(problem.candidates.size() == 2);
    CHECK(problem.candidates[0].name == "saxpy[WG=32]");
    CHECK(problem.candidates[1].name == "saxpy[WG=64]");
    const auto& first = problem.families[problem.candidates[0].family];
    const auto& second = problem.families[problem.candidates[1].family];
    CHECK(first.steps.at(0).spirv.filename() == "saxpy_32.spv");
    CHECK(second.steps.at(0).spirv.filename() == "saxpy_64.spv");
    CHECK(first.name == "saxpy");
    CHECK(second.name == "saxpy");
    CHECK(problem.candidates[problem.reference.candidates.at(0)].name == "saxpy[WG=64]");
}

TEST_CASE("a point whose SPIR-V file is missing is left out with the reason") {
    spvtune::tune::testing::TempDirectory dir;
    const Problem problem = parse(templated_saxpy(dir.path()));
    REQUIRE(problem.unavailable.size() == 1);
    CHECK(problem.unavailable[0].name == "saxpy[WG=128]");
    CHECK(contains(problem.unavailable[0].reason,
                   "no SPIR-V file '" + (dir.path() / "saxpy_128.spv").string() + "' (from '"));
    CHECK(problem.find_candidate("saxpy[WG=128]") == nullptr);
}

TEST_CASE(
    "a templated spirv path that finds no file, names no grid parameter or misses the reference is "
    "an error") {
    spvtune::tune::testing::TempDirectory dir;
    Json json = templated_saxpy(dir.path());
    json["candidates"][0]["spirv"] = (dir.path() / "none_{WG}.spv").string();
    // The reference, one of those points, is then missing too: the first error says why.
    CHECK(contains(errors_of(json).at(0), "/candidates/0/spirv: no point of '"));
    json = saxpy_json();
    json["candidates"][0]["spirv"] = "saxpy_{n}.spv";
    CHECK(contains(error_of(json),
                   "/candidates/0/spirv: bad spirv path 'saxpy_{n}.spv': unknown "
                   "grid parameter 'n'"));
    json = saxpy_json();
    json["candidates"][0]["spirv"] = "saxpy_{WG.spv";
    CHECK(contains(error_of(json), "a '{' without its '}'"));
    spvtune::tune::testing::TempDirectory other;
    json = templated_saxpy(other.path());
    json["reference"]["candidate"] = "saxpy[WG=128]";
    CHECK(contains(error_of(json),
                   "/reference/candidate: the reference candidate 'saxpy[WG=128]' "
                   "cannot be loaded: no SPIR-V file"));
}

TEST_CASE("a templated spirv path in a step loads each point's own file for that step") {
    spvtune::tune::testing::TempDirectory dir;
    Json json = templated_saxpy(dir.path());
    Json templated = json["candidates"][0];
    templated.erase("name");
    templated.erase("grid");
    Json plain = templated;
    plain["spirv"] = "saxpy.spv";
    json["candidates"].push_back(
        {{"name", "twice"}, {"grid", {{"WG", {32, 64, 128}}}}, {"steps", {plain, templated}}});
    const Problem problem = parse(json);
    REQUIRE(problem.unavailable.size() == 2);
    CHECK(problem.unavailable[1].name == "twice[WG=128]");
    CHECK(contains(problem.unavailable[1].reason, "/candidates/1/steps/1/spirv"));
    const auto step_file = [&problem](const std::string& name, std::size_t step) {
        return problem.families[problem.find_candidate(name)->family]
            .steps.at(step)
            .spirv.filename()
            .string();
    };
    CHECK(step_file("twice[WG=32]", 0) == "saxpy.spv");
    CHECK(step_file("twice[WG=32]", 1) == "saxpy_32.spv");
    CHECK(step_file("twice[WG=64]", 0) == "saxpy.spv");
    CHECK(step_file("twice[WG=64]", 1) == "saxpy_64.spv");
}

}  // namespace spirv_template_test
