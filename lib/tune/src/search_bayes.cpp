#include <algorithm>
#include <cmath>
#include <iterator>
#include <optional>
#include <utility>

#include "search_grid.hpp"
#include "search_surrogate.hpp"

namespace spvtune::tune::detail {
namespace {

/// Random points measured before the surrogate proposes any: enough for a first fit.
constexpr std::size_t first_sample = 8;
/// Unmeasured points the acquisition is computed for, besides the best point's neighbours: all
/// of a small space, a seeded sample of a large one (the surrogate's cost grows with both).
constexpr std::size_t candidate_pool = 2000;
/// The length scales and noise are searched again after this many new points; in between, the
/// last ones are reused (a fit tries some 60 settings).
constexpr std::size_t refit_every = 10;
/// The best points found go to the final race.
constexpr std::size_t bayes_finalists = 8;

SurrogateInput scaled(const GridIndex& grid, const GridPosition& position) {
    SurrogateInput input{position.family, {}};
    for (std::size_t axis = 0; axis < position.levels.size(); ++axis) {
        const std::size_t top = grid.top()[axis];
        input.levels.push_back(
            top ? static_cast<double>(position.levels[axis]) / static_cast<double>(top) : 0.0);
    }
    return input;
}

/// The unmeasured points of the space one level away from `centre` in one parameter or in two:
/// a pair of parameters that only pays when both move (two flags that each cost alone) is
/// reached this way.
std::vector<std::size_t> unmeasured_near(const SearchRun& run, const GridIndex& grid,
                                         const GridPosition& centre) {
    std::vector<std::size_t> out;
    auto add = [&](const GridPosition& position) {
        if (const auto at = grid.at(position); at && !run.touched(*at)) {
            out.push_back(*at);
        }
    };
    auto moved = [&](const GridPosition& from, std::size_t axis, bool up) {
        std::optional<GridPosition> to;
        const std::size_t level = centre.levels[axis];
        if (up ? level < grid.top()[axis] : level > 0) {
            to = from;
            to->levels[axis] = up ? level + 1 : level - 1;
        }
        return to;
    };
    for (std::size_t a = 0; a < centre.levels.size(); ++a) {
        for (const bool up : {false, true}) {
            const std::optional<GridPosition> one = moved(centre, a, up);
            if (!one) {
                continue;
            }
            add(*one);
            for (std::size_t b = a + 1; b < centre.levels.size(); ++b) {
                for (const bool up_b : {false, true}) {
                    if (const std::optional<GridPosition> two = moved(*one, b, up_b)) {
                        add(*two);
                    }
                }
            }
        }
    }
    return out;
}

/// What the search has learnt: every probed point with a grid position and its log-time, and
/// failed points at the slowest log-time seen, so that the surrogate steers away from regions
/// that fail (a resource limit fails whole regions of a grid).
std::pair<std::vector<SurrogateInput>, std::vector<double>> observations(const SearchRun& run,
                                                                         const GridIndex& grid) {
    std::pair<std::vector<SurrogateInput>, std::vector<double>> out;
    auto& [inputs, log_ns] = out;
    double slowest = 0.0;
    for (std::size_t p = 0; p < run.size(); ++p) {
        if (const auto ns = run.median(p);
            ns && std::isfinite(*ns) && *ns > 0.0 && run.point(p).position) {
            inputs.push_back(scaled(grid, *run.point(p).position));
            log_ns.push_back(std::log(*ns));
            slowest = log_ns.size() == 1 ? log_ns.back() : std::max(slowest, log_ns.back());
        }
    }
    if (log_ns.empty()) {
        return out;
    }
    for (std::size_t p = 0; p < run.size(); ++p) {
        if (run.dropped(p) && run.point(p).position) {
            inputs.push_back(scaled(grid, *run.point(p).position));
            log_ns.push_back(slowest);
        }
    }
    return out;
}

}  // namespace

std::optional<std::size_t> bayes_phase(SearchRun& run, std::size_t patience) {
    const GridIndex grid(run);
    const std::vector<std::size_t> order = run.shuffled_order();
    std::optional<std::size_t> best;
    std::size_t fruitless = 0;
    auto measure = [&](std::size_t p) {
        const std::optional<double> ns = run.probe(p, grid_probe_samples);
        if (!ns) {
            ++fruitless;
            return;
        }
        const bool improved = !best || *ns < *run.median(*best);
        // A lucky reading a little below the best moves the best but earns no more patience.
        const bool fruitful = improved && (!best || run.clearly_faster(p, *best));
        if (improved) {
            best = p;
        }
        fruitless = fruitful ? 0 : fruitless + 1;
    };
    auto next_unmeasured = [&]() -> std::optional<std::size_t> {
        const auto it = std::ranges::find_if(order, [&](std::size_t p) { return !run.touched(p); });
        return it == order.end() ? std::nullopt : std::optional(*it);
    };
    std::optional<LogTimeSurrogate::Settings> fitted;
    std::size_t fitted_at = 0;
    while (run.can_propose()) {
        if (fruitless >= patience && run.measured() >= std::min(grid_min_points, run.size())) {
            break;
        }
        auto [inputs, log_ns] = observations(run, grid);
        std::vector<std::size_t> candidates;
        if (best && run.measured() >= first_sample && log_ns.size() >= 2) {
            for (const std::size_t p : order) {
                if (candidates.size() == candidate_pool) {
                    break;
                }
                if (!run.touched(p) && run.point(p).position) {
                    candidates.push_back(p);
                }
            }
            if (const auto& centre = run.point(*best).position) {
                std::ranges::copy(unmeasured_near(run, grid, *centre),
                                  std::back_inserter(candidates));
            }
        }
        if (candidates.empty()) {
            // Too little measured to fit, or no unmeasured point has a grid position.
            const std::optional<std::size_t> p = next_unmeasured();
            if (!p) {
                break;
            }
            measure(*p);
            continue;
        }
        const bool refit = !fitted || log_ns.size() >= fitted_at + refit_every;
        const LogTimeSurrogate surrogate =
            refit ? LogTimeSurrogate(std::move(inputs), log_ns)
                  : LogTimeSurrogate(std::move(inputs), log_ns, *fitted);
        if (refit) {
            fitted = surrogate.settings();
            fitted_at = log_ns.size();
        }
        const double best_log = std::log(*run.median(*best));
        std::size_t chosen = candidates.front();
        double chosen_gain = -1.0;
        for (const std::size_t p : candidates) {
            const double gain =
                surrogate.expected_improvement(scaled(grid, *run.point(p).position), best_log);
            if (gain > chosen_gain) {
                chosen_gain = gain;
                chosen = p;
            }
        }
        measure(chosen);
    }
    return best;
}

/// Bayesian optimisation: after a few random points, each new point is the one whose expected
/// improvement on the best so far is largest under a Gaussian process fitted to the log-times
/// measured (LogTimeSurrogate), among a seeded sample of the space and the best point's near
/// neighbours. Stops when `patience` points in a row found nothing clearly better, or on the
/// budget or limit.
std::vector<std::size_t> search_bayes(SearchRun& run) {
    bayes_phase(run, run.settings().patience.value_or(bayes_patience));
    std::vector<std::size_t> finalists = run.by_median();
    finalists.resize(std::min(finalists.size(), bayes_finalists));
    return finalists;
}

}  // namespace spvtune::tune::detail
