#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>

#include <spvtune/problem/problem_key.hpp>
#include <spvtune/run/candidate_executor.hpp>
#include <spvtune/tune/sampling.hpp>
#include <spvtune/vulkan/batched_timer.hpp>

namespace spvtune::run::worker {

/// How long a request may take, and why, for the `timed out` reason.
struct Allowance {
    double seconds = 0;
    std::string why;
};

/// The deadlines of a worker's requests, from what each key measured so far.
///
/// A kernel may take the kernel timeout: the one given, else max(2 s, 50x the key's best time
/// so far), else, before the key has any, 25 s: generous for one dispatch even of a large key
/// on a CPU driver, and below the Vulkan engine's 30 s fence timeout, so that a hang is named
/// by the watchdog rather than by the worker's failed wait. A run gets one kernel; a measure
/// gets the batch its candidate measured last time plus one kernel, or, for its first sample
/// (one calibrating dispatch and a batch spanning the window), two kernels and the window. A
/// measure of a batch the caller chose gets that many of its candidate's last runs plus one
/// kernel, or, before the candidate has a sample, that many kernels.
/// Every request gets 1 s more for uploads and read-back. Pipeline builds are not kernels: 120 s.
class Watchdog {
  public:
    Watchdog(std::optional<std::chrono::duration<double>> kernel_timeout,
             vulkan::BatchPolicy batch);

    Allowance prepare() const;
    Allowance run(const problem::ProblemKey& key) const;
    /// `runs`: the batch the caller asked for, or own_batch; `samples` such batches in one
    /// request (only with a batch the caller chose), allowed as one batch of all their runs.
    Allowance measure(const problem::ProblemKey& key, std::size_t candidate, std::uint32_t runs,
                      std::uint32_t samples = 1) const;

    /// A run of the key that succeeded, with its wall time.
    void ran(const problem::ProblemKey& key, std::chrono::steady_clock::duration took);
    /// A sample of the key's candidate.
    void measured(const problem::ProblemKey& key, std::size_t candidate,
                  const tune::Sample& sample);

  private:
    /// A candidate's last sample: the time of one run, and how many runs its batch held.
    struct LastSample {
        double run_s = 0;
        std::uint64_t runs = 1;
    };
    struct KeyTimes {
        std::optional<double> best_s;            ///< fastest run or dispatch so far
        std::map<std::size_t, LastSample> last;  ///< by candidate
    };

    Allowance kernel(const problem::ProblemKey& key) const;

    std::optional<double> kernel_timeout_s_;
    vulkan::BatchPolicy batch_;
    std::unordered_map<problem::ProblemKey, KeyTimes> keys_;
};

}  // namespace spvtune::run::worker
