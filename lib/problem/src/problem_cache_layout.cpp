#include <spvtune/problem/candidate_executor.hpp>
#include <spvtune/problem/problem_cache_layout.hpp>
#include <spvtune/problem/problem_runner.hpp>
#include <spvtune/tune/key.hpp>

namespace spvtune::problem {
namespace {

/// Runs nothing: the tunable set is made only for its checksum, the same one tune computes.
class NoExecutor final : public CandidateExecutor {
  public:
    tune::Result<CandidateOutputs> run(const ResolvedCandidate&, const KeyPlan&) override {
        return tune::fail("no device");
    }
    tune::Result<tune::Sample> measure(const ResolvedCandidate&, const KeyPlan&,
                                       std::uint32_t) override {
        return tune::fail("no device");
    }
    tune::Status prepare(const ResolvedCandidate&) override { return tune::fail("no device"); }
};

}  // namespace

ProblemCacheLayout problem_cache_layout(const Problem& problem, tune::AutotuneLevel level) {
    NoExecutor executor;
    ProblemRunner runner(problem, executor);
    const ProblemTunableSet set = runner.make_set();
    ProblemCacheLayout layout{problem.name, set.checksum(), {}, {}};
    for (const Candidate& candidate : problem.candidates) {
        layout.candidates.push_back(candidate.name);
    }
    for (const KeyEntry& entry : problem.keys) {
        layout.keys[tune::canonical_key_json(problem.tuning_key(entry.key, level))].push_back(
            to_string(entry.key));
    }
    return layout;
}

}  // namespace spvtune::problem
