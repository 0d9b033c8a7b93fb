#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <spvtune/problem/problem.hpp>
#include <spvtune/tune/anchor.hpp>

namespace spvtune::problem {

/// Where `spvtune tune` stores a problem's results in a cache file, worked out without a
/// device: what `cache verify` and `cache prune` compare a cache file with.
struct ProblemCacheLayout {
    std::string tuner;                    ///< the problem's name
    std::uint64_t checksum;               ///< of today's candidate list (names and content digests)
    std::vector<std::string> candidates;  ///< today's candidate names
    /// Canonical JSON of each tuning key -> the problem's keys (printed) that it stands for.
    std::map<std::string, std::vector<std::string>> keys;
};

/// The layout of `problem`'s entries when its keys are bucketed at `level`.
ProblemCacheLayout problem_cache_layout(const Problem& problem, tune::AutotuneLevel level);

}  // namespace spvtune::problem
