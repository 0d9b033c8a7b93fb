#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "cache/temp_directory.hpp"
#include "cli/spvtune_run.hpp"

namespace check_command_test {

using namespace spvtune::tune::testing;
using spvtune::test::contains;
using spvtune::test::run_spvtune;
using Run = spvtune::test::SpvtuneRun;
namespace fs = std::filesystem;

namespace {

const fs::path invalid_dir{SPVTUNE_INVALID_PROBLEM_DIR};

/// The files under `directory` with their bytes, to prove a run changed nothing there.
std::map<fs::path, std::string> snapshot(const fs::path& directory) {
    std::map<fs::path, std::string> files;
    for (const auto& entry : fs::recursive_directory_iterator(directory)) {
        files[entry.path()] = entry.is_regular_file() ? read_bytes(entry.path()) : "(not a file)";
    }
    return files;
}

// Every run gets a cache directory holding a cache file: `check` must never touch it.
struct CheckFixture {
    TempDirectory scratch;
    TempDirectory cache;
    TempDirectory bad_kernels;

    CheckFixture() {
        write_bytes(cache.path() / "some-gpu-0123456789abcdef.json", "{\"not\": \"touched\"}\n");
        ::setenv("SPVTUNE_CACHE_DIR", cache.path().c_str(), 1);
        // A SPIR-V header with no instructions: well-formed enough to load, fails validation.
        const std::string header(
            "\x03\x02\x23\x07\x00\x00\x01\x00\x00\x00\x00\x00\x01\x00\x00\x00"
            "\x00\x00\x00\x00",
            20);
        write_bytes(bad_kernels.path() / "fails_validation.spv", header);
    }
    ~CheckFixture() { ::unsetenv("SPVTUNE_CACHE_DIR"); }
    CheckFixture(const CheckFixture&) = delete;
    CheckFixture& operator=(const CheckFixture&) = delete;

    Run check(const std::vector<std::string>& files) {
        std::vector<std::string> args{"check", "--kernel-dir", SPVTUNE_PROBLEM_TEST_KERNEL_DIR,
                                      "--kernel-dir", bad_kernels.path().string()};
        args.insert(args.end(), files.begin(), files.end());
        return run_spvtune(scratch, args);
    }
};

struct InvalidCase {
    const char* file;
    const char* message;  ///< a fragment of the error printed on stderr
};

// One file per fault, each a copy of base.json with one change (its description says which).
const InvalidCase invalid_cases[] = {
    {"syntax_error.json",
     "syntax_error.json: JSON syntax error at line 3, column 41: syntax "
     "error while parsing object key - unexpected '}'"},
    {"wrong_type.json", "wrong_type.json: /name: expected a string, found 5 (an integer)"},
    {"unknown_field.json", "/buffers/x/cout: unknown field 'cout' (did you mean 'count'?)"},
    {"four_typos.json", "/settings/sample: unknown field 'sample' (did you mean 'samples'?)"},
    {"missing_field.json", "/candidates/0: missing required field 'workgroups'"},
    {"unknown_buffer.json", "/candidates/0/bindings/1: unknown buffer 'yy' (did you mean 'y'?)"},
    {"key_unknown_parameter.json", "/keys/list/0/m: unknown parameter 'm'"},
    {"key_missing_parameter.json", "/keys/list/0: missing parameter 'n'"},
    {"expression_syntax.json",
     "/candidates/0/workgroups/0: bad expression: expected ',' or ')' "
     "in the arguments of 'ceil_div', found end of expression\n"
     "    ceil_div(n, WG\n"
     "                  ^"},
    {"unknown_variable.json",
     "/candidates/0/workgroups/0: bad expression: unknown variable 'nn' "
     "(did you mean 'n'?)"},
    {"division_by_zero.json",
     "/keys/list/0: key n=1000: /buffers/x/count: 'n / (n - 1000)': "
     "column 3: division by zero"},
    {"negative_count.json",
     "buffer 'x' would have -1000 elements for n=1000; expected a count > 0"},
    {"missing_spirv.json",
     "/candidates/0/spirv: cannot find SPIR-V file 'nowhere.spv'; looked in:"},
    {"not_spirv.json",
     "/candidates/0/spirv: '" SPVTUNE_INVALID_PROBLEM_DIR "/not_spirv.txt' is not a SPIR-V module"},
    {"invalid_spirv.json", "fails_validation.spv' failed SPIR-V validation"},
    {"wrong_entry.json", "/candidates/0/entry: "},
    {"binding_type_mismatch.json",
     "/candidates/0/bindings/0: set 0 binding 0 ('picture') of "
     "image_binding.spv:main is a storage image; expected a storage "
     "buffer or uniform buffer"},
    {"binding_not_in_shader.json",
     "/candidates/0/bindings/0.5: saxpy.spv:main uses no set 0 binding 5"},
    {"push_constants_too_small.json",
     "/candidates/0/push_constants: push constants too small: 4 "
     "bytes given, the block of saxpy.spv:main is 8 bytes"},
    {"push_constants_too_large.json",
     "push constants too large: 12 bytes given, the block of "
     "saxpy.spv:main is 8 bytes"},
    {"missing_spec_id.json",
     "/candidates/0/specialization/7: saxpy.spv:main declares no "
     "specialization constant with SpecId 7"},
    {"spec_wrong_type.json",
     "/candidates/0/specialization/0: specialization constant 0 (uint32) "
     "of saxpy[WG=32]: expected an int in the range of uint32, got float "
     "16.0"},
    {"spec_out_of_range.json", "expected an int in the range of uint32, got int -68"},
    {"unknown_reference.json",
     "/reference/candidate: unknown candidate 'saxpy[WG=65]' (did you "
     "mean 'saxpy[WG=64]'?)"},
    {"output_without_comparison.json", "/reference/compare: missing a comparison for buffer 'y'"},
    {"comparison_for_input.json", "/reference/compare/x: buffer 'x' is an input"},
    {"bad_element_type.json", "/buffers/x/type: unknown element type 'f33'"},
    {"bad_init_kind.json", "/buffers/x/init/gaussian: unknown field 'gaussian'"},
    {"bad_parameter_type.json",
     "/parameters/n/type: expected \"int\", \"float\" or \"string\", "
     "found \"integer\" (a string)"},
    {"bad_comparison.json", "/reference/compare/y/rtol: expected a number >= 0.0, found -1"},
    {"duplicate_candidate.json", "/candidates/1/name: candidate name 'saxpy' is used twice"},
    {"constraints_remove_all.json",
     "/candidates/0/constraints: the constraints remove every "
     "point of the grid (2 points: 'WG > 1000' removed 2)"},
    {"key_constraint_false.json",
     "/keys/list/0: key n=1000: no candidate can run this key:\n"
     "    saxpy[WG=32]: constraint 'n % WG == 0' is false for n=1000"},
    {"workgroup_count_limit.json",
     "saxpy[WG=1]: workgroup count x = 70000 exceeds "
     "maxComputeWorkGroupCount[0] = "},
    {"workgroup_size_limit.json",
     "saxpy[WG=100000]: workgroup size x = 100000 exceeds "
     "maxComputeWorkGroupSize[0] = "},
    {"buffer_too_large.json",
     "saxpy[WG=32]: buffer 'x' is 4294967296000 bytes, which exceeds "
     "maxStorageBufferRange = "},
};

}  // namespace

TEST_CASE("spvtune check accepts the base of the invalid files and the example configs") {
    CheckFixture fixture;
    const Run base = fixture.check({(invalid_dir / "base.json").string()});
    CHECK(base.err.empty());
    CHECK(contains(base.out, "base.json: problem 'saxpy_invalid_base': 1 keys, 2 candidates"));
    CHECK(contains(base.out, "key n=1000: 2 of 2 candidates"));
    CHECK(contains(base.out, "base.json: valid"));
    CHECK(base.exit_code == 0);
    const Run saxpy = fixture.check({(fs::path(SPVTUNE_CONFIG_DIR) / "saxpy.json").string()});
    CHECK(saxpy.exit_code == 0);
    CHECK(contains(saxpy.out, "key n=1000 (tuned as n=1024): 4 of 4 candidates"));
}

// configs/README.md runs `spvtune check configs/*.json`: the glob must find problems only.
TEST_CASE("spvtune check on every .json file in configs/ passes, as configs/README.md runs it") {
    CheckFixture fixture;
    std::vector<std::string> files;
    for (const auto& entry : fs::directory_iterator(SPVTUNE_CONFIG_DIR)) {
        if (entry.path().extension() == ".json") {
            files.push_back(entry.path().string());
        }
    }
    CHECK(files.size() >= 7);
    const Run run = fixture.check(files);
    CHECK_MESSAGE(run.exit_code == 0, run.err);
    CHECK(run.err.empty());
}

TEST_CASE("spvtune check reports each invalid problem file and exits 2, leaving the cache alone") {
    CheckFixture fixture;
    const auto cache_before = snapshot(fixture.cache.path());
    std::size_t files = 0;
    for (const auto& entry : fs::directory_iterator(invalid_dir)) {
        files += entry.path().extension() == ".json" && entry.path().filename() != "base.json";
    }
    // Every invalid file has a case, so none is left unchecked.
    CHECK(files == std::size(invalid_cases));
    CHECK(files >= 25);
    for (const InvalidCase& invalid : invalid_cases) {
        const std::string file = invalid.file;
        CAPTURE(file);
        const Run run = fixture.check({(invalid_dir / invalid.file).string()});
        CHECK(run.exit_code == 2);
        CHECK_MESSAGE(contains(run.err, invalid.message), run.err);
        CHECK(contains(run.err, std::string(invalid.file) + ": "));
        CHECK(contains(run.out, std::string(invalid.file) + ": invalid"));
    }
    CHECK(snapshot(fixture.cache.path()) == cache_before);
}

// problem-format.md: check "reports all structural faults of a file at once".
TEST_CASE("spvtune check reports typos in four sections of a file in one run") {
    CheckFixture fixture;
    const Run run = fixture.check({(invalid_dir / "four_typos.json").string()});
    CHECK(run.exit_code == 2);
    for (const char* fault : {"four_typos.json: /settings/sample: unknown field 'sample'",
                              "four_typos.json: /buffers/x/rol: unknown field 'rol'",
                              "four_typos.json: /candidates/0/entri: unknown field 'entri'",
                              "four_typos.json: /reference/candidat: unknown field 'candidat'"}) {
        CHECK_MESSAGE(contains(run.err, fault), run.err);
    }
}

TEST_CASE("spvtune check goes on after an invalid file and reports the valid ones too") {
    CheckFixture fixture;
    const Run run = fixture.check(
        {(invalid_dir / "wrong_type.json").string(), (invalid_dir / "base.json").string()});
    CHECK(run.exit_code == 2);
    CHECK(contains(run.err, "wrong_type.json: /name: expected a string"));
    CHECK(contains(run.out, "base.json: valid"));
}

TEST_CASE("spvtune check with a missing file or no file at all") {
    CheckFixture fixture;
    const Run missing = fixture.check({(invalid_dir / "no_such_problem.json").string()});
    CHECK(missing.exit_code == 2);
    CHECK(missing.err == "spvtune: error: " + (invalid_dir / "no_such_problem.json").string() +
                             ": no such file\n");
    const Run nothing = run_spvtune(fixture.scratch, {"check"});
    CHECK(nothing.exit_code == 2);
    CHECK(nothing.err ==
          "spvtune: error: problems is required\nRun 'spvtune check --help' for its usage.\n");
}

TEST_CASE("spvtune check says which of several reference candidates each key is checked against") {
    CheckFixture fixture;
    const Run run = run_spvtune(
        fixture.scratch, {"check", "--kernel-dir", SPVTUNE_CLI_TEST_KERNEL_DIR,
                          (fs::path(SPVTUNE_CLI_PROBLEM_DIR) / "reference_list.json").string()});
    CHECK_MESSAGE(run.exit_code == 0, run.out << run.err);
    CHECK(contains(run.out, "3 candidates, reference single else fast\n"));
    CHECK(contains(run.out, "key n=64: 3 of 3 candidates, reference single\n"));
    CHECK(contains(run.out, "key n=4096: 2 of 3 candidates, reference fast\n"));
}

}  // namespace check_command_test
