#include "search_bayes.hpp"

namespace spvtune::tune::detail {
namespace {

/// Points in a row without a clearly better one after which the lead of an exhaustive run
/// hands over to the given order.
constexpr std::size_t lead_patience = 20;

bool on_a_grid(const SearchRun& run) {
    for (std::size_t p = 0; p < run.size(); ++p) {
        if (run.point(p).position) {
            return true;
        }
    }
    return false;
}

}  // namespace

/// Every point (the reference first), checked before the race, while the budget and limit
/// allow: today's tuning when neither is set. On a grid, the points Bayesian optimisation picks
/// lead, then the rest follow in the given order: a budget or limit that cuts the run keeps
/// promising points instead of the file's first ones, at the price of the lead's brief probes.
std::vector<std::size_t> search_exhaustive(SearchRun& run) {
    if (on_a_grid(run)) {
        BayesProposer proposer(run);
        bayes_phase(run, proposer, lead_patience);
    }
    for (const std::size_t p : run.registration_order()) {
        if (!run.can_propose()) {
            break;
        }
        run.admit(p);
    }
    std::vector<std::size_t> admitted;
    for (std::size_t p = 0; p < run.size(); ++p) {
        if (run.touched(p) && !run.dropped(p)) {
            admitted.push_back(p);
        }
    }
    return admitted;
}

}  // namespace spvtune::tune::detail
