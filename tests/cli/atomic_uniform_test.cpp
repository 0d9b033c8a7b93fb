#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "tune_fixture.hpp"

namespace atomic_uniform_test {

using namespace spvtune::test;
using spvtune::tune::testing::read_bytes;
namespace fs = std::filesystem;

// A kernel that reads its parameters from a uniform buffer and accumulates with atomics into an
// inout buffer that starts at zero (tests/cli/kernels/atomic_sum.comp). The inout is reset before
// every run, so the checked run sums once however many timed runs came before it.

TEST_CASE(
    "atomic accumulation into a zeroed inout buffer, with a uniform buffer, is checked exactly") {
    TuneFixture fixture;
    const fs::path dir = fixture.scratch.path() / "dump";
    // --fixed: every candidate gets its 5 timed runs. Adaptively, a preempted first sample 20x
    // the other's cut a candidate after one run on a loaded machine (seen 1 time in 6).
    const SpvtuneRun run =
        fixture.tune("atomic_sum.json", {"--fixed", "--dump-outputs", dir.string()});
    REQUIRE_MESSAGE(run.exit_code == 0, run.out << run.err);

    const nlohmann::json key = fixture.keys().at(0);
    for (const std::string name : {"sum[WG=32]", "sum[WG=256]"}) {
        CAPTURE(name);
        const nlohmann::json& entry = candidate(key, name);
        CHECK(entry.at("status") != "wrong output");
        // Every run, timed or checked, starts from a zero total: the checked sum is one pass.
        CHECK(entry.at("statistics").at("samples") == 5);

        const std::string bytes =
            read_bytes(dir / ("atomic-sum-test.n=256." + name + ".total.bin"));
        REQUIRE(bytes.size() == sizeof(std::uint32_t));
        std::uint32_t total = 0;
        std::memcpy(&total, bytes.data(), sizeof total);
        // scale (256) times 0 + 1 + ... + 255.
        CHECK(total == 256U * (256U * 255U / 2U));
    }
}

}  // namespace atomic_uniform_test
