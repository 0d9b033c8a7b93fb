#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "tune_fixture.hpp"

namespace small_specialization_test {

using namespace spvtune::test;
using spvtune::tune::testing::read_bytes;
using spvtune::tune::testing::write_bytes;
namespace fs = std::filesystem;

// Specialization constants of 8- and 16-bit types (tests/cli/kernels/small_spec_constants.comp):
// values from the problem file reach the kernel at their own width.

namespace {

std::vector<float> dumped(const fs::path& dir, const std::string& candidate) {
    const std::string bytes = read_bytes(dir / ("small-spec-test.n=256." + candidate + ".out.bin"));
    std::vector<float> values(bytes.size() / sizeof(float));
    std::memcpy(values.data(), bytes.data(), values.size() * sizeof(float));
    return values;
}

/// small_spec.json with one specialization value of "extremes" replaced, checked.
SpvtuneRun check_with(TuneFixture& fixture, const std::string& constant,
                      const nlohmann::json& value) {
    nlohmann::json problem = nlohmann::json::parse(read_bytes(problems + "/small_spec.json"));
    problem["candidates"][1]["specialization"][constant] = value;
    const fs::path file = fixture.scratch.path() / "small_spec.json";
    write_bytes(file, problem.dump());
    return run_spvtune(fixture.scratch,
                       {"check", file.string(), "--kernel-dir", SPVTUNE_CLI_TEST_KERNEL_DIR});
}

}  // namespace

TEST_CASE("8- and 16-bit specialization values reach the kernel at their own width") {
    TuneFixture fixture;
    const fs::path dir = fixture.scratch.path() / "dump";
    const SpvtuneRun run = fixture.tune("small_spec.json", {"--dump-outputs", dir.string()});
    REQUIRE_MESSAGE(run.exit_code == 0, run.out << run.err);

    // The shader's defaults: int8 -3, uint8 7, int16 -300, uint16 1000, float16 0.5.
    const std::vector<float> defaults = dumped(dir, "defaults");
    REQUIRE(defaults.size() == 256);
    CHECK(defaults[0] == doctest::Approx(704));
    CHECK(defaults[255] == doctest::Approx(255 * 0.5 + 704));

    // Each type's extreme: a value packed into the wrong bytes, or read over its neighbour,
    // changes the sum.
    const std::vector<float> extremes = dumped(dir, "extremes");
    REQUIRE(extremes.size() == 256);
    constexpr double offsets = -128 + 255 + 32767 + 65535;
    CHECK(extremes[0] == doctest::Approx(offsets));
    CHECK(extremes[255] == doctest::Approx(255 * 2 + offsets));

    const nlohmann::json key = fixture.keys().at(0);
    CHECK(key.at("winner") == "extremes");
    CHECK(candidate(key, "defaults").at("status") == "wrong output");
}

TEST_CASE("8- and 16-bit specialization values out of their type's range are refused") {
    TuneFixture fixture;
    const SpvtuneRun int8 = check_with(fixture, "offset_i8", 128);
    CHECK(int8.exit_code == 2);
    CHECK_MESSAGE(contains(int8.err,
                           "/candidates/1/specialization/offset_i8: specialization "
                           "constant 0 (int8)"),
                  int8.err);
    CHECK(contains(int8.err, "expected an int in the range of int8, got int 128"));

    const SpvtuneRun uint16 = check_with(fixture, "offset_u16", -1);
    CHECK(uint16.exit_code == 2);
    CHECK(contains(uint16.err, "expected an int in the range of uint16, got int -1"));

    const SpvtuneRun half = check_with(fixture, "scale", 70000.0);
    CHECK(half.exit_code == 2);
    CHECK_MESSAGE(contains(half.err, "expected a number in the range of float16 (|x| <= 65504)"),
                  half.err);
}

}  // namespace small_specialization_test
