#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include <spvtune/tune/sampling.hpp>

namespace spvtune::tune {

/// A sample request's batch when the sample source sizes the batch itself.
inline constexpr std::uint64_t own_runs = 0;

/// The one batch of runs that candidates judged side by side are timed over. A submission's
/// fixed cost weighs 1 / runs on each run (on lavapipe a batch of 1 ran 10-30% slower per run
/// than one of 10), so two identical kernels near a batch-size boundary, one calibrated to 1 run
/// and the other to 2, would read as different. Each candidate calibrates its own batch on its
/// first sample (a warm-up, requested with own_runs); after that every one times the largest
/// batch any calibrated, the one the fastest needs to span the sampling window. A far slower
/// candidate is not stretched beyond 64 times its own batch: its ratio is then so far from 1
/// that the fixed cost cannot change a decision, and its samples stay affordable.
class SharedBatch {
  public:
    explicit SharedBatch(std::size_t candidates) : calibrated_(candidates) {}

    /// The runs the candidate's next sample should time: own_runs until it has calibrated.
    std::uint64_t runs_for(std::size_t candidate) const;

    /// Takes the candidate's calibration from its first sample (runs below 1 count as 1).
    void measured(std::size_t candidate, const Sample& sample);

  private:
    static constexpr std::uint64_t max_stretch = 64;
    std::vector<std::optional<std::uint64_t>> calibrated_;
};

}  // namespace spvtune::tune
