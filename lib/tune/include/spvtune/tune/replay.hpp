#pragma once

#include <optional>

#include <spvtune/tune/recording.hpp>
#include <spvtune/tune/sampling.hpp>
#include <spvtune/tune/search.hpp>

namespace spvtune::tune {

/// How a replayed measurement of a point is drawn.
struct ReplayNoise {
    /// Unset: one of the point's recorded times (the noise as recorded, which a few repeats
    /// describe poorly). Set: the point's recorded mean times a log-normal factor of mean 1 and
    /// this coefficient of variation, so that every point meets noise of one known size around
    /// its recorded truth.
    std::optional<double> cv;
};

/// Runs a search over a recorded space instead of a device: the strategy `settings` choose for
/// a space of the recording's size (as `tune` would), each measurement drawn with the seed as
/// `noise` says, a recorded failure failing the point when first proposed. The budget reads a
/// clock that advances by each sample's time. Candidate indices are positions in
/// `recording.points`.
SearchOutcome replay_search(const Recording& recording, const SearchSettings& settings,
                            const SamplingSettings& sampling, const ReplayNoise& noise = {});

}  // namespace spvtune::tune
