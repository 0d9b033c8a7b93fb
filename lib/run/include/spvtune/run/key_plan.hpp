#pragma once

#include <optional>
#include <string>
#include <vector>

#include <spvtune/problem/problem.hpp>
#include <spvtune/problem/resolve.hpp>
#include <spvtune/run/device_limits.hpp>

namespace spvtune::run {

struct SkippedCandidate {
    std::string name;
    std::string reason;
};

/// What runs for one key: its buffers, the candidates that can run and why the others cannot.
struct KeyPlan {
    problem::ProblemKey key;         ///< exact: buffers and dispatch use it
    problem::ProblemKey tuning_key;  ///< bucketed: the tuner stores results under it
    std::vector<problem::ResolvedBuffer> buffers;
    std::vector<problem::ResolvedCandidate> runnable;  ///< in Problem::candidates order
    std::vector<SkippedCandidate> skipped;             ///< in Problem::candidates order
    /// Set when the key cannot be tuned: its buffers fail, no candidate can run, or none of the
    /// reference candidates can run (outputs could not be checked).
    std::optional<std::string> error;
    /// Whether `error` says only that no reference candidate can run this key: its runnable
    /// candidates can still run it unchecked (a cached winner, or the most preferred candidate
    /// under MissPolicy::run_preferred); measuring them needs a reference to check against.
    bool runs_unchecked = false;
    /// Index into `runnable` of this key's truth: the first of Problem::reference.candidates
    /// that can run it, when one can.
    std::optional<std::size_t> reference;
};

/// Resolves every candidate of `problem` for `key` and, when `limits` is given, checks each
/// against the device's limits.
KeyPlan plan_key(const problem::Problem& problem, const problem::ProblemKey& key,
                 const DeviceLimits* limits,
                 tune::AutotuneLevel level = tune::AutotuneLevel::balanced);

}  // namespace spvtune::run
