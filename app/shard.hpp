#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>

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

/// Whether `key` belongs to `shard`: by a hash of the key's canonical JSON, so every run and
/// every other shard agrees, whatever the order or number of the problem's keys.
bool in_shard(const problem::ProblemKey& key, const Shard& shard);

}  // namespace spvtune::app
