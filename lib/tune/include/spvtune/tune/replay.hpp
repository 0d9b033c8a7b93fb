#pragma once

#include <spvtune/tune/recording.hpp>
#include <spvtune/tune/sampling.hpp>
#include <spvtune/tune/search.hpp>

namespace spvtune::tune {

/// Runs a search over a recorded space instead of a device: the strategy `settings` choose for
/// a space of the recording's size (as `tune` would), each measurement one of the point's
/// recorded times drawn with the seed (the noise as recorded), a recorded failure failing the
/// point when first proposed. The budget reads a clock that advances by each sample's time.
/// Candidate indices are positions in `recording.points`.
SearchOutcome replay_search(const Recording& recording, const SearchSettings& settings,
                            const SamplingSettings& sampling);

}  // namespace spvtune::tune
