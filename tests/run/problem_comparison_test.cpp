// compare_key measures every arm of a key over batches of equal size, whatever batch each arm
// would have calibrated alone. A scripted executor stands in for the device.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/run/candidate_executor.hpp>
#include <spvtune/run/problem_comparison.hpp>
#include <spvtune/run/problem_runner.hpp>

#include "problem/problem_test_support.hpp"

namespace problem_comparison_test {

using namespace spvtune;
using namespace spvtune::problem;
using namespace spvtune::run;

namespace {

/// Every candidate writes the same output. A sample asked for with own_batch times the batch
/// the candidate calibrates to (`own_runs`); a sample asked for with a count times that count.
/// Each run costs 100 ns plus the batch's fixed 400 ns shared among its runs, as on lavapipe.
class BatchScriptedExecutor final : public CandidateExecutor {
  public:
    std::map<std::string, std::uint32_t> own_runs;
    std::map<std::string, std::vector<std::uint32_t>> timed;  ///< each sample's runs, in order

    tune::Result<CandidateOutputs> run(const ResolvedCandidate& /*candidate*/,
                                       const KeyPlan& plan) override {
        return CandidateOutputs{{spvtune::base::LargeBytes(plan.buffers.at(1).bytes, std::byte{1})},
                                {}};
    }

    tune::Result<tune::Sample> measure(const ResolvedCandidate& candidate, const KeyPlan& /*plan*/,
                                       std::uint32_t runs) override {
        const std::uint32_t batch = runs == own_batch ? own_runs.at(candidate.name) : runs;
        timed[candidate.name].push_back(batch);
        return tune::Sample{100 + 400.0 / batch, tune::TimingMethod::device_timestamps, batch};
    }

    tune::Status prepare(const ResolvedCandidate& /*candidate*/) override { return tune::ok(); }
};

DeviceLimits roomy_device() {
    DeviceLimits limits;
    limits.device_name = "Roomy GPU";
    limits.max_workgroup_count = {65535, 65535, 65535};
    limits.max_workgroup_size = {1024, 1024, 64};
    limits.max_workgroup_invocations = 1024;
    limits.max_push_constants_size = 128;
    limits.max_storage_buffer_range = std::numeric_limits<std::uint32_t>::max();
    limits.max_uniform_buffer_range = 1U << 16;
    limits.max_memory_allocation_size = std::uint64_t{1} << 32;
    limits.device_memory = std::uint64_t{1} << 34;
    return limits;
}

/// compare_key on the problem's second key for the candidates `order` (the baseline first), with
/// one warm-up and 8 to `max_samples` rounds.
KeyComparison compare_candidates(const Problem& problem, ProblemRunner& runner,
                                 const std::vector<std::size_t>& order, std::size_t max_samples) {
    std::vector<ComparisonArm> arms;
    for (const std::size_t candidate : order) {
        arms.push_back({&problem, &runner, candidate});
    }
    tune::ComparisonSettings settings;
    settings.warmup_runs = 1;
    settings.min_samples = 8;
    settings.max_samples = max_samples;
    return compare_key(arms, problem.keys.at(1).key, roomy_device(), tune::AutotuneLevel::full,
                       settings);
}

}  // namespace

TEST_CASE("compare: identical arms that calibrate different batches are timed over equal ones") {
    const Problem problem = testing::parse(testing::saxpy_json());
    BatchScriptedExecutor executor;
    // The same kernel three times over, calibrated near a batch boundary: 1, 2 and 3 runs.
    executor.own_runs = {{"saxpy[WG=32]", 1}, {"saxpy[WG=64]", 2}, {"saxpy[WG=128]", 3}};
    ProblemRunner runner(problem, executor);
    const KeyComparison comparison = compare_candidates(problem, runner, {1, 0, 2}, 16);
    REQUIRE_FALSE(comparison.error);
    // Each arm's first sample (its warm-up) calibrates its own batch; every sample after it
    // times the largest of those.
    for (const auto& [name, own] : executor.own_runs) {
        const std::vector<std::uint32_t>& timed = executor.timed.at(name);
        REQUIRE(timed.size() >= 9);
        CHECK(timed.front() == own);
        for (std::size_t i = 1; i < timed.size(); ++i) {
            CHECK_MESSAGE(timed[i] == 3, name << " sample " << i);
        }
    }
    // Equal batches pay equal fixed costs: the copies are equivalent, not faster or slower.
    REQUIRE(comparison.outcome.contenders.size() == 2);
    for (const tune::ContenderComparison& contender : comparison.outcome.contenders) {
        CHECK(contender.interval.ratio == doctest::Approx(1.0));
        CHECK(contender.verdict == tune::Verdict::equivalent);
    }
}

TEST_CASE("compare: a far slower arm is not stretched beyond 64 times its own batch") {
    const Problem problem = testing::parse(testing::saxpy_json());
    BatchScriptedExecutor executor;
    executor.own_runs = {{"saxpy[WG=32]", 1}, {"saxpy[WG=64]", 4096}};
    ProblemRunner runner(problem, executor);
    const KeyComparison comparison = compare_candidates(problem, runner, {1, 0}, 8);
    REQUIRE_FALSE(comparison.error);
    const std::vector<std::uint32_t>& slow = executor.timed.at("saxpy[WG=32]");
    REQUIRE(slow.size() == 9);
    CHECK(slow.front() == 1);
    CHECK(slow.back() == 64);
    CHECK(executor.timed.at("saxpy[WG=64]").back() == 4096);
}

}  // namespace problem_comparison_test
