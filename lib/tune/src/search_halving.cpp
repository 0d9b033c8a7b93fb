#include <algorithm>

#include "search_run.hpp"

namespace spvtune::tune::detail {
namespace {

/// Each round keeps the best 1/eta of the points and doubles their samples.
constexpr std::size_t eta = 3;
/// The rounds end when this many points are left; the normal race settles them.
constexpr std::size_t halving_finalists = 4;

}  // namespace

/// Successive halving: every proposed point gets one sample after a warm-up; the best third go
/// on with twice the samples, and so on until a few are left for the final race. Once the budget
/// is spent no new point is proposed and the best points so far go to the race.
std::vector<std::size_t> search_halving(SearchRun& run) {
    std::vector<std::size_t> live;
    for (const std::size_t p : run.shuffled_order()) {
        if (!run.can_propose()) {
            break;
        }
        if (run.probe(p, 1)) {
            live.push_back(p);
        }
    }
    std::size_t samples = 1;
    while (live.size() > halving_finalists && !run.budget_spent()) {
        std::stable_sort(live.begin(), live.end(), [&](std::size_t a, std::size_t b) {
            return *run.median(a) < *run.median(b);
        });
        live.resize(std::max(halving_finalists, (live.size() + eta - 1) / eta));
        samples *= 2;
        std::erase_if(live, [&](std::size_t p) { return !run.probe(p, samples); });
    }
    std::stable_sort(live.begin(), live.end(),
                     [&](std::size_t a, std::size_t b) { return *run.median(a) < *run.median(b); });
    live.resize(std::min(live.size(), halving_finalists));
    return live;
}

}  // namespace spvtune::tune::detail
