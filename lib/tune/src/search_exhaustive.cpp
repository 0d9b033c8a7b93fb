#include <algorithm>

#include "search_run.hpp"

namespace spvtune::tune::detail {

/// Every point in the given order (the reference first), checked before the race, while the
/// budget and limit allow: today's tuning when neither is set.
std::vector<std::size_t> search_exhaustive(SearchRun& run) {
    std::vector<std::size_t> order = run.registration_order();
    std::vector<std::size_t> admitted;
    for (const std::size_t p : order) {
        if (!run.can_propose()) {
            break;
        }
        if (run.admit(p)) {
            admitted.push_back(p);
        }
    }
    std::sort(admitted.begin(), admitted.end());
    return admitted;
}

}  // namespace spvtune::tune::detail
