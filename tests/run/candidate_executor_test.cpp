// ProblemRunner drives any CandidateExecutor: the seam a worker-process executor will use.
// A scripted executor stands in for the device, so no GPU is needed.
#include <algorithm>
#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/run/candidate_executor.hpp>
#include <spvtune/run/key_plan.hpp>
#include <spvtune/run/output_dump.hpp>
#include <spvtune/run/problem_runner.hpp>
#include <spvtune/tune/client.hpp>
#include <spvtune/tune/local_tuner.hpp>

#include "cache/temp_directory.hpp"
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
        return CandidateOutputs{{spvtune::base::LargeBytes(plan.buffers.at(1).bytes, value)}, {}};
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

/// Checks where it runs, as a worker process does: every run asked for with a reference is
/// compared here, and only a mismatch brings its buffers back.
class CheckingExecutor final : public CandidateExecutor {
  public:
    explicit CheckingExecutor(const Problem& problem) : problem_(problem) {}

    std::string wrong;
    std::vector<std::string> unchecked_runs;
    std::vector<std::string> checked_runs;
    std::vector<std::shared_ptr<const CandidateOutputs>> references;

    tune::Result<CandidateOutputs> run(const ResolvedCandidate& candidate,
                                       const KeyPlan& plan) override {
        unchecked_runs.push_back(candidate.name);
        return outputs(candidate, plan);
    }

    tune::Result<CandidateOutputs> run_checked(
        const ResolvedCandidate& candidate, const KeyPlan& plan,
        const std::shared_ptr<const CandidateOutputs>& reference) override {
        checked_runs.push_back(candidate.name);
        references.push_back(reference);
        CandidateOutputs got = outputs(candidate, plan);
        std::optional<std::string> mismatch = compare_outputs(problem_, *reference, got);
        if (!mismatch) {
            got.buffers.clear();
        } else {
            *mismatch = "(compared where it ran) " + *mismatch;
        }
        got.verdict = CandidateOutputs::Verdict{reference, std::move(mismatch)};
        return got;
    }

    tune::Result<tune::Sample> measure(const ResolvedCandidate& /*candidate*/,
                                       const KeyPlan& /*plan*/, std::uint32_t /*runs*/) override {
        return tune::Sample{100, tune::TimingMethod::device_timestamps};
    }

    tune::Status prepare(const ResolvedCandidate& /*candidate*/) override { return tune::ok(); }

  private:
    CandidateOutputs outputs(const ResolvedCandidate& candidate, const KeyPlan& plan) const {
        const std::byte value = candidate.name == wrong ? std::byte{0x40} : std::byte{0x3f};
        return CandidateOutputs{{spvtune::base::LargeBytes(plan.buffers.at(1).bytes, value)}, {}};
    }

    const Problem& problem_;
};

tune::HardwareIdentity fake_gpu() {
    tune::HardwareIdentity identity;
    identity.key = "fake-gpu";
    return identity;
}

/// Tunes the problem's second key through `runner`, checks on, `samples` to `most` samples each:
/// the key's entry (null when execute failed).
std::shared_ptr<const tune::TuneEntry> tune_second_key(const Problem& problem,
                                                       ProblemRunner& runner, std::size_t samples,
                                                       std::size_t most) {
    tune::TunerOptions options;
    options.checks = true;
    options.sampling.warmup_runs = 1;
    options.sampling.min_samples = samples;
    options.sampling.max_samples = most;
    tune::LocalTuner<ProblemKey, int> tuner(problem.name, options);
    const auto set = tuner.init(0, [&runner] { return runner.make_set(); });
    const tune::FixedIdentityClient client(fake_gpu());
    const KeyPlan plan = plan_key(problem, problem.keys.at(1).key, nullptr);
    tune::ExecutionInfo info;
    if (!tuner.execute(0, client, *set, KeyInputs{&plan}, &info)) {
        return nullptr;
    }
    return info.entry;
}

}  // namespace

TEST_CASE("a problem tunes through any executor: fastest correct wins, samples are kept") {
    const Problem problem = testing::parse(testing::saxpy_json());
    ScriptedExecutor executor;
    executor.ns = {{"saxpy[WG=32]", 50}, {"saxpy[WG=64]", 300}, {"saxpy[WG=128]", 100}};
    executor.wrong = "saxpy[WG=32]";  // fastest, but its output differs from the reference
    ProblemRunner runner(problem, executor);

    const auto entry = tune_second_key(problem, runner, 5, 8);
    REQUIRE(entry);
    CHECK(entry->winner_name == "saxpy[WG=128]");
    REQUIRE(entry->failures.size() == 1);
    CHECK(entry->failures[0].name == "saxpy[WG=32]");
    CHECK(entry->failures[0].kind == tune::FailureKind::wrong_output);

    const KeyPlan plan = plan_key(problem, problem.keys.at(1).key, nullptr);
    const auto samples = runner.samples(plan.key);
    REQUIRE(samples.size() == 3);
    CHECK(samples[0].empty());  // the wrong candidate is never measured
    CHECK(samples[1].size() >= 5);
    CHECK(samples[2].size() >= 5);
    CHECK(samples[2].front().ns_per_run == 100);
}

TEST_CASE("once the reference's outputs are the truth, the others are checked where they run") {
    const Problem problem = testing::parse(testing::saxpy_json());
    CheckingExecutor executor(problem);
    executor.wrong = "saxpy[WG=32]";
    ProblemRunner runner(problem, executor);

    const auto entry = tune_second_key(problem, runner, 3, 3);
    REQUIRE(entry);
    const KeyPlan plan = plan_key(problem, problem.keys.at(1).key, nullptr);

    // The reference ran as before, its buffers brought back; the others went to run_checked
    // with its outputs, and the verdict they brought is the one the tuner gave.
    REQUIRE_FALSE(executor.unchecked_runs.empty());
    for (const std::string& name : executor.unchecked_runs) {
        CHECK(name == "saxpy[WG=64]");
    }
    CHECK(executor.checked_runs.size() == 2);
    for (const auto& reference : executor.references) {
        REQUIRE(reference);
        CHECK(reference->buffers.at(0) ==
              spvtune::base::LargeBytes(plan.buffers.at(1).bytes, std::byte{0x3f}));
    }
    REQUIRE(entry->failures.size() == 1);
    CHECK(entry->failures[0].name == "saxpy[WG=32]");
    CHECK(entry->failures[0].kind == tune::FailureKind::wrong_output);
    CHECK(entry->failures[0].reason.starts_with(
        "differs from 'saxpy[WG=64]': (compared where it ran) y[0]: expected 0."));
}

TEST_CASE("with outputs dumped, every candidate's buffers come back: nothing is checked away") {
    const Problem problem = testing::parse(testing::saxpy_json());
    CheckingExecutor executor(problem);
    ProblemRunner runner(problem, executor);
    const spvtune::tune::testing::TempDirectory dump_dir;
    OutputDump dump(dump_dir.path() / "outputs");
    runner.dump_outputs(&dump);
    REQUIRE(tune_second_key(problem, runner, 3, 3));
    CHECK(executor.checked_runs.empty());
    for (const char* name : {"saxpy[WG=32]", "saxpy[WG=64]", "saxpy[WG=128]"}) {
        CHECK(std::count(executor.unchecked_runs.begin(), executor.unchecked_runs.end(), name) >=
              1);
    }
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
