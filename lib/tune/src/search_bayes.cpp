#include "search_bayes.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <optional>
#include <span>
#include <utility>

namespace spvtune::tune::detail {
namespace {

/// Random points measured before the surrogate proposes any: enough for a first fit.
constexpr std::size_t first_sample = 8;
/// Unmeasured points the acquisition is computed for, besides the best point's neighbours: all
/// of a small space, a seeded sample of a large one (the surrogate's cost grows with both).
constexpr std::size_t candidate_pool = 2000;
/// The length scales and noise are searched again after this many new points; in between, the
/// last ones are reused (a search of them factorises the covariance 12 to 100 times).
constexpr std::size_t refit_every = 10;
/// The most points the surrogate is fitted to: its fit grows with their cube and each
/// prediction with their square, and a search of a thousand points would take minutes to
/// choose them. Of more, it keeps the fastest `model_fastest` (where the next best point is
/// sought) and an even spread of the rest by speed (so slow regions stay known as slow).
constexpr std::size_t model_points = 150;
constexpr std::size_t model_fastest = 100;

SurrogateInput scaled(const GridIndex& grid, const GridPosition& position) {
    SurrogateInput input{position.family, {}};
    for (std::size_t axis = 0; axis < position.levels.size(); ++axis) {
        const std::size_t top = grid.top()[axis];
        input.levels.push_back(
            top ? static_cast<double>(position.levels[axis]) / static_cast<double>(top) : 0.0);
    }
    return input;
}

enum class Moves { one_or_two_parameters, two_parameters };

/// The unmeasured points of the space one level away from `centre` in one parameter or in two
/// (or in two only): a pair of parameters that only pays when both move (two flags that each
/// cost alone) is reached this way.
std::vector<std::size_t> unmeasured_near(const SearchRun& run, const GridIndex& grid,
                                         const GridPosition& centre, Moves moves) {
    std::vector<std::size_t> out;
    auto add = [&](const GridPosition& position) {
        if (const auto at = grid.at(position); at && !run.touched(*at)) {
            out.push_back(*at);
        }
    };
    auto moved = [&](const GridPosition& from, std::size_t axis, bool up) {
        std::optional<GridPosition> to;
        if (const auto level = grid.beside(axis, centre.levels[axis], up)) {
            to = from;
            to->levels[axis] = *level;
        }
        return to;
    };
    for (std::size_t a = 0; a < centre.levels.size(); ++a) {
        for (const bool up : {false, true}) {
            const std::optional<GridPosition> one = moved(centre, a, up);
            if (!one) {
                continue;
            }
            if (moves == Moves::one_or_two_parameters) {
                add(*one);
            }
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
/// that fail (a resource limit fails whole regions of a grid). Beyond `model_points`, the
/// fastest points and an even spread of the others by rank.
struct Observations {
    std::vector<SurrogateInput> inputs;
    std::vector<double> log_ns;
    std::vector<std::size_t> points;  ///< the point of each input
};
Observations observations(const SearchRun& run, std::span<const SurrogateInput> inputs) {
    std::vector<std::pair<double, std::size_t>> seen;  // log-time, point
    double slowest = 0.0;
    for (const std::size_t p : run.touched_points()) {
        if (const auto ns = run.median(p);
            ns && std::isfinite(*ns) && *ns > 0.0 && run.point(p).position) {
            seen.emplace_back(std::log(*ns), p);
            slowest = seen.size() == 1 ? seen.back().first : std::max(slowest, seen.back().first);
        }
    }
    if (!seen.empty()) {
        for (const std::size_t p : run.touched_points()) {
            if (run.dropped(p) && run.point(p).position) {
                seen.emplace_back(slowest, p);
            }
        }
    }
    if (seen.size() > model_points) {
        std::ranges::sort(seen);
        std::vector<std::pair<double, std::size_t>> kept(seen.begin(),
                                                         seen.begin() + model_fastest);
        const std::size_t others = seen.size() - model_fastest;
        const std::size_t spread = model_points - model_fastest;
        for (std::size_t k = 0; k < spread; ++k) {
            kept.push_back(seen[model_fastest + k * others / spread]);
        }
        seen = std::move(kept);
    }
    Observations out;
    for (const auto& [log_ns, p] : seen) {
        out.inputs.push_back(inputs[p]);
        out.log_ns.push_back(log_ns);
        out.points.push_back(p);
    }
    return out;
}

}  // namespace

BayesProposer::BayesProposer(SearchRun& run) : grid_(run), order_(run.shuffled_order()) {
    inputs_.reserve(run.size());
    for (std::size_t p = 0; p < run.size(); ++p) {
        const std::optional<GridPosition>& position = run.point(p).position;
        inputs_.push_back(position ? scaled(grid_, *position) : SurrogateInput{});
    }
}

std::optional<BayesProposer::Fit> BayesProposer::fitted(const SearchRun& run) {
    if (run.measured() < first_sample) {
        return std::nullopt;
    }
    Observations seen = observations(run, inputs_);
    if (seen.log_ns.size() < 2) {
        return std::nullopt;
    }
    const bool refit = !fitted_ || run.measured() >= fitted_at_ + refit_every;
    if (refit) {
        const std::optional<double> spread = run.reading_spread();
        quiet_ = spread && *spread <= quiet_spread;
    }
    const SurrogateTerms terms =
        quiet_ ? SurrogateTerms::joint_and_one_parameter : SurrogateTerms::joint;
    LogTimeSurrogate surrogate =
        refit ? LogTimeSurrogate(std::move(seen.inputs), seen.log_ns, terms)
              : LogTimeSurrogate(std::move(seen.inputs), seen.log_ns, *fitted_);
    if (refit) {
        fitted_ = surrogate.settings();
        fitted_at_ = run.measured();
        cross_.clear();
    }
    return Fit{std::move(surrogate), std::move(seen.points)};
}

std::optional<std::size_t> BayesProposer::next(const SearchRun& run) {
    const std::vector<std::size_t> ranked = run.by_median();
    std::optional<Fit> fit;
    std::vector<std::size_t> candidates;
    if (!ranked.empty()) {
        fit = fitted(run);
    }
    if (fit) {
        for (const std::size_t p : order_) {
            if (candidates.size() == candidate_pool) {
                break;
            }
            if (!run.touched(p) && run.point(p).position) {
                candidates.push_back(p);
            }
        }
        if (const auto& centre = run.point(ranked.front()).position) {
            std::ranges::copy(unmeasured_near(run, grid_, *centre, Moves::one_or_two_parameters),
                              std::back_inserter(candidates));
        }
    }
    last_gain_.reset();
    if (candidates.empty()) {
        // Too little measured to fit, or no unmeasured point has a grid position.
        const auto it =
            std::ranges::find_if(order_, [&](std::size_t p) { return !run.touched(p); });
        return it == order_.end() ? std::nullopt : std::optional(*it);
    }
    const double best_log = std::log(*run.median(ranked.front()));
    const auto [chosen, gain] = fit->surrogate.most_expected_improvement(
        cross_.rows(candidates, inputs_, fit->points, fit->surrogate), best_log);
    last_gain_ = gain;
    return candidates[chosen];
}

std::vector<std::size_t> BayesProposer::predicted_pair_moves(const SearchRun& run,
                                                             std::size_t point, std::size_t count) {
    const std::optional<GridPosition>& centre = run.point(point).position;
    if (!centre) {
        return {};
    }
    const std::optional<Fit> fit = fitted(run);
    if (!fit) {
        return {};
    }
    struct Move {
        bool two_valued_pair;  ///< both moved parameters have two values only
        double predicted_log_ns;
        std::size_t point;
    };
    std::vector<Move> ranked;
    for (const std::size_t p : unmeasured_near(run, grid_, *centre, Moves::two_parameters)) {
        const GridPosition& to = *run.point(p).position;
        std::size_t two_valued = 0;
        for (std::size_t axis = 0; axis < to.levels.size(); ++axis) {
            two_valued += to.levels[axis] != centre->levels[axis] && grid_.top()[axis] == 1 ? 1 : 0;
        }
        ranked.push_back({two_valued == 2, fit->surrogate.predict(inputs_[p]).mean, p});
    }
    std::ranges::stable_sort(ranked, [](const Move& a, const Move& b) {
        return std::pair(!a.two_valued_pair, a.predicted_log_ns) <
               std::pair(!b.two_valued_pair, b.predicted_log_ns);
    });
    std::vector<std::size_t> moves;
    for (std::size_t k = 0; k < std::min(count, ranked.size()); ++k) {
        moves.push_back(ranked[k].point);
    }
    return moves;
}

std::optional<std::size_t> bayes_phase(SearchRun& run, BayesProposer& proposer,
                                       std::size_t patience,
                                       std::optional<std::size_t> quiet_patience) {
    const std::vector<std::size_t> ranked = run.by_median();
    std::optional<std::size_t> best = ranked.empty() ? std::nullopt : std::optional(ranked.front());
    std::size_t fruitless = 0;
    while (run.can_propose()) {
        const std::size_t limit = proposer.quiet() ? quiet_patience.value_or(patience) : patience;
        if (fruitless >= limit && run.measured() >= std::min(grid_min_points, run.size())) {
            break;
        }
        const std::optional<std::size_t> p = proposer.next(run);
        if (!p) {
            break;
        }
        const std::optional<double> ns = run.probe(*p, grid_probe_samples);
        if (!ns) {
            // Until a point runs, there is no best to improve on: a space that mostly fails is
            // searched until one does.
            fruitless += best ? 1 : 0;
            continue;
        }
        const bool improved = !best || *ns < *run.median(*best);
        // A lucky reading a little below the best moves the best but earns no more patience.
        const bool fruitful = improved && (!best || run.clearly_faster(*p, *best));
        if (improved) {
            best = p;
        }
        fruitless = fruitful ? 0 : fruitless + 1;
    }
    return best;
}

}  // namespace spvtune::tune::detail
