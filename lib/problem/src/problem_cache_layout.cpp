#include <spvtune/problem/candidate_identity.hpp>
#include <spvtune/problem/problem_cache_layout.hpp>
#include <spvtune/tune/key.hpp>

namespace spvtune::problem {

ProblemCacheLayout problem_cache_layout(const Problem& problem, tune::AutotuneLevel level) {
    ProblemCacheLayout layout{problem.name, candidate_list_checksum(problem), {}, {}};
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
