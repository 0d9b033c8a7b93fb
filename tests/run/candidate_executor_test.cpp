// ProblemRunner drives any CandidateExecutor: the seam a worker-process executor will use.
// A scripted executor stands in for the device, so no GPU is needed.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/run/candidate_executor.hpp>
#include <spvtune/run/key_plan.hpp>
#include <spvtune/run/problem_runner.hpp>
#include <spvtune/tune/client.hpp>
#include <spvtune/tune/local_tuner.hpp>

#include "problem/problem_test_support.hpp"

namespace candidate_executor_test {

using namespace spvtune;
using namespace spvtune::problem;
using namespace spvtune::run;

namespace {

/// Scripted: every candidate writes the same bytes except `wrong`; each has a fixed time.
class ScriptedExecutor final : public CandidateExecutor {
  public:
    std::map<std::string, double> ns;
    std::string wrong;
    std::map<std::string, int> runs;
    std::map<std::string, int> prepares;

    tune::Result<CandidateOutputs> run(const ResolvedCandidate& candidate,
                                       const KeyPlan& plan) override {
        ++runs[candidate.name];
        const std::byte value = candidate.name == wrong ? std::byte{0x40} : std::byte{0x3f};
        return CandidateOutputs{{std::vector<std::byte>(plan.buffers.at(1).bytes, value)}, {}};
    }

    tune::Result<tune::Sample> measure(const ResolvedCandidate& candidate, const KeyPlan& /*plan*/,
                                       std::uint32_t /*runs*/) override {
        return tune::Sample{ns.at(candidate.name), tune::TimingMethod::device_timestamps};
    }

    tune::Status prepare(const ResolvedCandidate& candidate) override {
        ++prepares[candidate.name];
        return tune::ok();
    }
};

tune::HardwareIdentity fake_gpu() {
    tune::HardwareIdentity identity;
    identity.key = "fake-gpu";
    return identity;
}

}  // namespace

TEST_CASE("a problem tunes through any executor: fastest correct wins, samples are kept") {
    const Problem problem = testing::parse(testing::saxpy_json());
    ScriptedExecutor executor;
    executor.ns = {{"saxpy[WG=32]", 50}, {"saxpy[WG=64]", 300}, {"saxpy[WG=128]", 100}};
    executor.wrong = "saxpy[WG=32]";  // fastest, but its output differs from the reference
    ProblemRunner runner(problem, executor);

    tune::TunerOptions options;
    options.checks = true;
    options.sampling.warmup_runs = 1;
    options.sampling.min_samples = 5;
    options.sampling.max_samples = 8;
    tune::LocalTuner<ProblemKey, int> tuner(problem.name, options);
    const auto set = tuner.init(0, [&runner] { return runner.make_set(); });
    const tune::FixedIdentityClient client(fake_gpu());

    const KeyPlan plan = plan_key(problem, problem.keys.at(1).key, nullptr);
    tune::ExecutionInfo info;
    const auto out = tuner.execute(0, client, *set, KeyInputs{&plan}, &info);
    REQUIRE(out);
    REQUIRE(info.entry);
    CHECK(info.entry->winner_name == "saxpy[WG=128]");
    REQUIRE(info.entry->failures.size() == 1);
    CHECK(info.entry->failures[0].name == "saxpy[WG=32]");
    CHECK(info.entry->failures[0].kind == tune::FailureKind::wrong_output);

    const auto samples = runner.samples(plan.key);
    REQUIRE(samples.size() == 3);
    CHECK(samples[0].empty());  // the wrong candidate is never measured
    CHECK(samples[1].size() >= 5);
    CHECK(samples[2].size() >= 5);
    CHECK(samples[2].front().ns_per_run == 100);
}

TEST_CASE("prepare reaches the executor once per key the candidate can run for") {
    const Problem problem = testing::parse(testing::saxpy_json());
    ScriptedExecutor executor;
    ProblemRunner runner(problem, executor);
    REQUIRE(runner.prepare(1));
    CHECK(executor.prepares["saxpy[WG=64]"] == static_cast<int>(problem.keys.size()));
    CHECK(executor.prepares.count("saxpy[WG=32]") == 0);
}

TEST_CASE("a candidate the plan skipped never reaches the executor, and says why") {
    testing::Json json = testing::saxpy_json();
    json["candidates"][0]["constraints"] = {"WG <= 64 || n >= 4096"};  // WG=128 skips n=1000
    const Problem problem = testing::parse(json);
    ScriptedExecutor executor;
    ProblemRunner runner(problem, executor);
    const KeyPlan plan = plan_key(problem, problem.keys.at(0).key, nullptr);
    const auto skipped = runner.run(2, plan);
    REQUIRE_FALSE(skipped);
    CHECK(skipped.error().rfind("skipped: ", 0) == 0);
    CHECK(executor.runs.empty());
    REQUIRE(runner.run(1, plan));
    CHECK(executor.runs["saxpy[WG=64]"] == 1);
}

}  // namespace candidate_executor_test
