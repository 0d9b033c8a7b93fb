#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "tune_fixture.hpp"

namespace dump_outputs_test {

using namespace spvtune::test;
using spvtune::tune::testing::read_bytes;
using spvtune::tune::testing::write_bytes;
namespace fs = std::filesystem;

// `tune --dump-outputs DIR` and `show-output`: what each candidate wrote, to look at when every
// candidate agrees on a wrong answer.

namespace {

const std::string stem = "scale-test.n=16384.";

nlohmann::json manifest(const fs::path& dir, const std::string& candidate) {
    return nlohmann::json::parse(read_bytes(dir / (stem + candidate + ".y.json")));
}

}  // namespace

TEST_CASE(
    "tune --dump-outputs writes each candidate's outputs and the reference's, with manifests") {
    TuneFixture fixture;
    const fs::path dir = fixture.scratch.path() / "dump" / "nested";
    const SpvtuneRun run =
        fixture.tune("scale.json", {"--key", "n=16384", "--dump-outputs", dir.string()});
    REQUIRE_MESSAGE(run.exit_code == 0, run.out << run.err);
    for (const std::string candidate : {"slow", "fast", "wrong", "half"}) {
        CAPTURE(candidate);
        const nlohmann::json m = manifest(dir, candidate);
        CHECK(m.at("candidate") == candidate);
        CHECK(m.at("reference") == (candidate == "slow"));
        CHECK(m.at("buffer") == "y");
        CHECK(m.at("type") == "f32");
        CHECK(m.at("count") == 16384);
        CHECK(m.at("key") == nlohmann::json{{"n", 16384}});
        CHECK(fs::file_size(dir / (stem + candidate + ".y.bin")) == 16384 * 4);
    }
    // Keys not run are not dumped.
    CHECK_FALSE(fs::exists(dir / "scale-test.n=32768.slow.y.json"));

    // The reference doubles x and "wrong" triples it: 3/2 of each other, element by element.
    const SpvtuneRun slow = run_spvtune(
        fixture.scratch, {"show-output", (dir / (stem + "slow.y.bin")).string(), "--range", "2:4"});
    const SpvtuneRun wrong =
        run_spvtune(fixture.scratch,
                    {"show-output", (dir / (stem + "wrong.y.json")).string(), "--range", "2:4"});
    REQUIRE_MESSAGE(slow.exit_code == 0, slow.err);
    REQUIRE_MESSAGE(wrong.exit_code == 0, wrong.err);
    CHECK(contains(slow.out, "y: 16384 x f32, candidate slow (reference), key {\"n\":16384}\n"));
    CHECK(contains(wrong.out, "candidate wrong, key"));
    const auto values = [](const std::string& out) {
        std::vector<double> numbers;
        std::istringstream lines(out.substr(out.find('\n') + 1));
        std::size_t index = 0;
        double value = 0;
        while (lines >> index >> value) {
            numbers.push_back(value);
        }
        return numbers;
    };
    const auto want = values(slow.out);
    const auto got = values(wrong.out);
    REQUIRE(want.size() == 2);
    REQUIRE(got.size() == 2);
    CHECK(got[0] == doctest::Approx(want[0] * 1.5));
    CHECK(got[1] == doctest::Approx(want[1] * 1.5));
    CHECK(contains(slow.out, "\n2 "));
    CHECK(contains(slow.out, "\n3 "));
    CHECK_FALSE(contains(slow.out, "\n4 "));

    // The half writer leaves its second half as the poison pattern, a NaN.
    const SpvtuneRun half =
        run_spvtune(fixture.scratch,
                    {"show-output", (dir / (stem + "half.y.bin")).string(), "--range", "16383:"});
    REQUIRE(half.exit_code == 0);
    CHECK(contains(half.out, "\n16383 nan\n"));
}

TEST_CASE("tune --dump-outputs fails at once when the directory cannot be made") {
    TuneFixture fixture;
    const fs::path file = fixture.scratch.path() / "a-file";
    write_bytes(file, "not a directory");
    const SpvtuneRun run = fixture.tune("scale.json", {"--dump-outputs", (file / "dump").string()});
    CHECK(run.exit_code == 2);
    CHECK(contains(run.err, "spvtune: error: --dump-outputs: cannot create the output directory"));
    CHECK(read_bytes(file) == "not a directory");
    CHECK(fixture.cache_files().empty());
}

TEST_CASE("show-output says what is wrong with a file or a range") {
    TuneFixture fixture;
    const fs::path dir = fixture.scratch.path() / "dump";
    REQUIRE(fixture.tune("scale.json", {"--key", "n=16384", "--dump-outputs", dir.string()})
                .exit_code == 0);
    const SpvtuneRun missing =
        run_spvtune(fixture.scratch, {"show-output", (dir / "nothing.bin").string()});
    CHECK(missing.exit_code == 2);
    CHECK(missing.err == "spvtune: error: " + (dir / "nothing.bin").string() + ": no such file\n");
    const SpvtuneRun backwards = run_spvtune(
        fixture.scratch, {"show-output", (dir / (stem + "fast.y.bin")).string(), "--range", "5:2"});
    CHECK(backwards.exit_code == 2);
    CHECK(contains(backwards.err, "--range 5:2: expected A:B with A <= B"));
    // A data file cut short does not match its manifest.
    write_bytes(dir / (stem + "fast.y.bin"), "abc");
    const SpvtuneRun cut =
        run_spvtune(fixture.scratch, {"show-output", (dir / (stem + "fast.y.json")).string()});
    CHECK(cut.exit_code == 2);
    CHECK(contains(cut.err, "the data file holds 3 bytes; expected 16384 elements of f32"));
}

}  // namespace dump_outputs_test
