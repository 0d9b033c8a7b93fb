#include <cstdlib>
#include <filesystem>
#include <string>

#include <doctest/doctest.h>

#include "cache/temp_directory.hpp"
#include "cli/spvtune_run.hpp"

namespace spirv_template_check_test {

using namespace spvtune::tune::testing;
using spvtune::test::contains;
using spvtune::test::run_spvtune;
namespace fs = std::filesystem;

// `spirv` paths with grid parameters: check lists the points whose file is missing, with why,
// and the file stays valid with the others.

TEST_CASE("check lists the grid points a templated spirv path finds no file for") {
    TempDirectory scratch;
    TempDirectory cache;
    ::setenv("SPVTUNE_CACHE_DIR", cache.path().c_str(), 1);
    const fs::path kernel = fs::path(SPVTUNE_CLI_TEST_KERNEL_DIR) / "scale.spv";
    fs::copy_file(kernel, scratch.path() / "scale_1.spv");
    fs::copy_file(kernel, scratch.path() / "scale_64.spv");
    write_bytes(scratch.path() / "templated.json", R"json({
        "name": "templated",
        "parameters": {"n": {"type": "int"}},
        "keys": {"list": [{"n": 4096}]},
        "buffers": {
            "x": {"type": "f32", "count": "n", "role": "input"},
            "y": {"type": "f32", "count": "n", "role": "output"}
        },
        "candidates": [{
            "name": "scale", "spirv": "scale_{WG}.spv", "grid": {"WG": [1, 64, 128]},
            "specialization": {"0": "WG"}, "workgroups": ["ceil_div(n, WG)", 1, 1],
            "push_constants": [{"type": "u32", "value": "n"}], "bindings": {"0": "x", "1": "y"}
        }],
        "reference": {"candidate": "scale[WG=1]", "compare": {"y": {"exact": true}}}
    })json");
    const auto run = run_spvtune(scratch, {"check", (scratch.path() / "templated.json").string()});
    ::unsetenv("SPVTUNE_CACHE_DIR");
    CHECK_MESSAGE(run.exit_code == 0, run.out << run.err);
    CHECK(contains(run.out,
                   "left out scale[WG=128]: no SPIR-V file 'scale_128.spv' (from "
                   "'scale_{WG}.spv', /candidates/0/spirv)\n"));
    CHECK(contains(run.out, "key n=4096: 2 of 2 candidates"));
}

}  // namespace spirv_template_check_test
