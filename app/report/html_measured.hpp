#pragma once

#include <optional>

#include "json_view.hpp"

namespace spvtune::app {

/// What a tune report's candidate's statistics say, when it was measured (in this run, or when
/// the cache entry that answered its key was made and kept them).
struct Measured {
    double median_ns = 0;
    double ci_low_ns = 0;
    double ci_high_ns = 0;
};

/// Nothing when the candidate has no statistics, or statistics of no sample (a cache entry
/// keeps only its winner's unless tuned with --keep-ranking).
std::optional<Measured> measured(const JsonView& candidate);

}  // namespace spvtune::app
