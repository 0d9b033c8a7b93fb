#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <spvtune/problem/problem_key.hpp>
#include <spvtune/tune/result.hpp>

namespace spvtune::app {

/// One shard of the keys: tune --shard I/N, or an array job's environment.
struct Shard {
    std::size_t index = 0;  ///< 0-based
    std::size_t count = 1;
    std::string source;  ///< where it came from, for the run's first line
};

/// Reads an environment variable; nothing when unset.
using EnvironmentReader = std::function<std::optional<std::string>(const char*)>;

/// The EnvironmentReader of this process (the tests give choose_shard others).
std::optional<std::string> process_environment(const char* name);

/// The shard to tune: `--shard I/N` (I from 1 to N) when given; else the first array-job
/// environment found: Slurm (SLURM_ARRAY_TASK_ID from SLURM_ARRAY_TASK_MIN, of
/// SLURM_ARRAY_TASK_COUNT), a Kubernetes indexed Job (JOB_COMPLETION_INDEX, with the count
/// `shard_count` from --shard-count), GitLab's parallel jobs (CI_NODE_INDEX of CI_NODE_TOTAL);
/// nothing when none applies. Fails on malformed or inconsistent values.
tune::Result<std::optional<Shard>> choose_shard(const std::string& option,
                                                std::optional<std::size_t> shard_count,
                                                const EnvironmentReader& environment);

/// One unit the shards split: the keys that share a cache entry (one tuning key of one
/// problem), named by a stable identity, with the estimated cost of tuning it.
struct ShardWork {
    std::string identity;
    double cost = 0;
};

/// Roughly how long tuning a key takes: the number of candidates times the problem size, the
/// product of the key's numeric parameters (each at least 1; text parameters count 1).
double estimated_cost(const problem::ProblemKey& key, std::size_t candidates);

/// The shard (0-based, of `count`) that tunes each unit of `work`: the costliest unit first,
/// each to the shard with the least planned cost so far (the lowest index on a tie), units of
/// equal cost in the order of their identities. The plan depends only on the units, never on
/// their order, so every run and every shard given the same problems and --key agree.
std::vector<std::size_t> plan_shards(const std::vector<ShardWork>& work, std::size_t count);

}  // namespace spvtune::app
