// A driver that compiles a pipeline at its first dispatch (lavapipe does) spends seconds there
// on a large kernel: that time is a build's, under the build's deadline, never a check run's.
#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "support/scoped_env.hpp"
#include "tune_fixture.hpp"

namespace compile_time_test {

using namespace spvtune::test;

TEST_CASE("tune: a pipeline's compile at its first dispatch is build time, not a kernel's" *
          doctest::test_suite("timing")) {
    TuneFixture fixture;
    // Mesa's shader cache in the scratch folder: empty for the first run, as on a new machine,
    // and filled for the second.
    const ScopedEnv shader_cache("MESA_SHADER_CACHE_DIR",
                                 (fixture.scratch.path() / "mesa").string());
    // 1.2 s for a checked run (0.2 s and 1 s for transfers): the candidate's kernel takes
    // milliseconds, its compile seconds.
    const SpvtuneRun cold = fixture.tune("slow_compile.json", {"--kernel-timeout", "0.2"});
    CHECK_MESSAGE(cold.exit_code == 0, cold.out, cold.err);
    const nlohmann::json cold_key = fixture.keys().at(0);
    const nlohmann::json& slow = candidate(cold_key, "slow_compile");
    CHECK_MESSAGE(slow.at("status") == "ok", slow.dump());
    CHECK(fixture.report_json().at("faulted_candidates") == 0);
    const nlohmann::json& time = cold_key.at("time");
    CHECK_MESSAGE(
        time.at("pipeline_builds_s").get<double>() > 10 * time.at("output_runs_s").get<double>(),
        time.dump());

    // The warm run (compiled code from Mesa's cache) crowns the same candidate.
    fixture.cache = fixture.scratch.path() / "warm-cache";
    const SpvtuneRun warm = fixture.tune("slow_compile.json", {"--kernel-timeout", "0.2"});
    CHECK_MESSAGE(warm.exit_code == 0, warm.out, warm.err);
    const nlohmann::json warm_key = fixture.keys().at(0);
    CHECK(candidate(warm_key, "slow_compile").at("status") == "ok");
    CHECK(warm_key.at("winner") == cold_key.at("winner"));
}

}  // namespace compile_time_test
