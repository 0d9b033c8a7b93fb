#pragma once

#include <cstddef>
#include <map>
#include <tuple>

#include "search_run.hpp"

namespace spvtune::tune::detail {

/// What a search has measured, summed up per parameter level: each level's mean effect on the
/// logarithm of the time, shrunk towards none while few points hold it. The sum of a point's
/// effects predicts how fast it is. Run times on real devices are far from additive, but the
/// averages over many points see through the noise of single readings, which descents chase:
/// on a recorded lavapipe space with readings 20% apart, restarts at the predicted fastest
/// points reached the best point in more seeds than random restarts.
class LevelEffects {
  public:
    /// Learns from every point of `run` probed so far that has a grid position and a median.
    explicit LevelEffects(const SearchRun& run);

    /// The predicted log-time of `position` relative to the mean of those measured (lower is
    /// faster); a level nothing measured holds adds nothing.
    double predict(const GridPosition& position) const;
    /// Whether any measured point had a grid position.
    bool empty() const { return effects_.empty(); }

  private:
    struct Effect {
        double sum = 0.0;
        std::size_t count = 0;
    };
    /// (family, parameter, level); the family's own effect is the parameter past its last.
    using Level = std::tuple<std::size_t, std::size_t, std::size_t>;
    std::map<Level, Effect> effects_;
};

}  // namespace spvtune::tune::detail
