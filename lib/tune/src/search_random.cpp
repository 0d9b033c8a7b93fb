#include <algorithm>

#include "search_run.hpp"

namespace spvtune::tune::detail {
namespace {

/// Without max_candidates, random samples this many points, or this share of a larger space:
/// enough that a sample of a smooth space holds points near its best.
constexpr std::size_t random_sample_floor = 32;
constexpr std::size_t random_sample_divisor = 10;

}  // namespace

/// A seeded sample, each point checked as it is proposed; the normal race measures them all.
std::vector<std::size_t> search_random(SearchRun& run) {
    const std::size_t wanted = std::max(random_sample_floor, run.size() / random_sample_divisor);
    std::vector<std::size_t> sample;
    for (const std::size_t p : run.shuffled_order()) {
        if (sample.size() >= wanted || !run.can_propose()) {
            break;
        }
        if (run.admit(p)) {
            sample.push_back(p);
        }
    }
    return sample;
}

}  // namespace spvtune::tune::detail
