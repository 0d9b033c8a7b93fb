// The tuner announces a key's candidates for building ahead only when its search measures
// them all: a search that measures a few points must not have the rest built.
#include <cstddef>
#include <set>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/run/candidate_executor.hpp>
#include <spvtune/run/device_executor.hpp>
#include <spvtune/run/problem_tuning.hpp>

#include "problem/problem_test_support.hpp"
#include "vulkan/vulkan_fixture.hpp"

namespace search_prefetch_test {

using namespace spvtune;
using namespace spvtune::problem;
using namespace spvtune::run;

namespace {

/// Runs everything on a real device executor, remembering what was announced and what ran.
class RecordingExecutor final : public CandidateExecutor {
  public:
    explicit RecordingExecutor(DeviceExecutor& inner) : inner_(inner) {}

    std::vector<std::size_t> announced;
    std::set<std::size_t> used;

    tune::Result<CandidateOutputs> run(const ResolvedCandidate& candidate,
                                       const KeyPlan& plan) override {
        used.insert(candidate.candidate);
        return inner_.run(candidate, plan);
    }
    tune::Result<tune::Sample> measure(const ResolvedCandidate& candidate, const KeyPlan& plan,
                                       std::uint32_t runs) override {
        used.insert(candidate.candidate);
        return inner_.measure(candidate, plan, runs);
    }
    tune::Status prepare(const ResolvedCandidate& candidate) override {
        return inner_.prepare(candidate);
    }
    void prefetch(const KeyPlan& plan, std::span<const std::size_t> candidates) override {
        announced.insert(announced.end(), candidates.begin(), candidates.end());
        inner_.prefetch(plan, candidates);
    }

  private:
    DeviceExecutor& inner_;
};

Problem saxpy_grid() {
    auto json = testing::saxpy_json();
    json["candidates"][0]["grid"]["WG"] = {16, 32, 64, 128, 256};
    return testing::parse(json);
}

TuningOptions quick(tune::SearchSettings search) {
    TuningOptions options;
    options.tuner.sampling = tune::SamplingSettings::fixed(0, 2);
    options.tuner.search = search;
    return options;
}

}  // namespace

TEST_CASE("an exhaustive search announces every runnable candidate for building ahead") {
    test::VulkanFixture vulkan;
    const Problem problem = saxpy_grid();
    DeviceExecutor device(problem, vulkan.device(), {}, default_max_prepared_candidates,
                          {nullptr, 2});
    RecordingExecutor executor(device);
    ProblemTuning tuning(problem, vulkan.device().info(), executor,
                         quick({.strategy = tune::SearchStrategy::exhaustive}));
    const KeyReport report = tuning.tune(problem.keys.front().key);
    REQUIRE(report.entry);
    CHECK(std::set<std::size_t>(executor.announced.begin(), executor.announced.end()) ==
          executor.used);
    CHECK(executor.used.size() == 5);
}

TEST_CASE("a search that measures a few points announces none, so no other is built") {
    test::VulkanFixture vulkan;
    const Problem problem = saxpy_grid();
    DeviceExecutor device(problem, vulkan.device(), {}, default_max_prepared_candidates,
                          {nullptr, 2});
    RecordingExecutor executor(device);
    ProblemTuning tuning(
        problem, vulkan.device().info(), executor,
        quick({.strategy = tune::SearchStrategy::random, .max_candidates = std::size_t{2}}));
    const KeyReport report = tuning.tune(problem.keys.front().key);
    REQUIRE(report.entry);
    CHECK(executor.announced.empty());
    CHECK(executor.used.size() == 2);
    CHECK(device.pipelines_built() == 2);
}

}  // namespace search_prefetch_test
