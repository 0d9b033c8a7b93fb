#include <algorithm>
#include <set>
#include <utility>
#include <vector>

#include "search_bayes.hpp"
#include "search_grid.hpp"
#include "search_model.hpp"

namespace spvtune::tune::detail {
namespace {

/// Samples of a point, and of its neighbours not clearly slower, before the search accepts the
/// point as a local optimum: brief readings on a loaded machine can fake one (a neighbour read a
/// few per cent slow).
constexpr std::size_t confirm_samples = 9;
/// The first descent starts at the best of this many random points, not at the reference (often
/// a slow corner): a small sample of a rugged space lands in a good basin far more often.
constexpr std::size_t start_sample = 8;
/// A restart from a sample starts at the best of this many points: those the level effects
/// predict fastest, or random ones while nothing measured has a grid position.
constexpr std::size_t restart_sample = 4;
/// A hop changes this many parameters of the best point at random (basin hopping).
constexpr std::size_t hop_parameters = 2;
/// How far a hop moves each of them: 1 to this many levels. Hops to any level at random left
/// the basin they were meant to search beside: replayed at patience 8 over 40 seeds, hops of one
/// or two levels reached 5% of the optimum in 32 seeds of the conv-like space (in a mean of 102
/// points) where hops anywhere did in 29 (141), and in 23 of the split-K space's (80) against
/// 22 (106); the GEMM-like, rugged5 and bowl spaces moved by at most a seed. Not a general
/// result: on rugged5, hops anywhere find a good point sooner (0.968 of the best after 50
/// points against 0.943).
constexpr std::size_t hop_reach = 2;
/// Tries to land a hop on an unmeasured point before it falls back to a sampled restart.
constexpr std::size_t hop_tries = 16;
/// The best points found go to the final race. Brief readings on a noisy machine misorder the
/// top points of a space (on lavapipe, the split-K space's fastest read 20 ms in one run and
/// 34 ms in the next), so today's best may rank a few places down. Replayed over 40 seeds with
/// each point's recorded median as its truth, 16 rather than 8 put the winner within 5% of the
/// best in all 40 seeds of the wide split-K recording instead of 38 (mean regret 1.019 against
/// 1.024) and cut the 384-point one's mean regret from 1.107 to 1.066, for about 4% more
/// replayed time; the quiet synthetic spaces moved by at most a seed.
constexpr std::size_t local_finalists = 16;
/// `bayes` lets Bayesian optimisation lead until this many points in a row found nothing
/// clearly faster, then descends from the best it found. Replayed over 40 seeds (with
/// `local`'s restarts after the lead), a lead of 15 reached 5% of the optimum of the conv-like
/// space in 36 seeds (in a mean of 80 points) where 20 did in 37 (72), and in the GEMM-like
/// space in 40 (172) against 40 (181); the point-in-polygon-like, rugged5 and recorded spaces
/// moved by a few points either way, and the recorded synthetic one by 18 in favour of 15.
constexpr std::size_t guided_lead_patience = 15;
/// The lead's patience where the readings are quiet, and the surrogate has one-parameter terms
/// (BayesProposer::quiet()): with them it goes on finding faster points where descents would
/// take a step per parameter. Replayed over 20 seeds, conv-like came within 5% of its best in a
/// mean of 54 points against 73 with the lead of 15, GEMM-like in 162 against 184.
constexpr std::size_t quiet_lead_patience = 40;
/// Guided, with the default patience: the search also ends after this many fruitless restarts in
/// a row when the point Bayesian optimisation last proposed was expected to improve on the best
/// by less than `exhausted_gain` (in log-time: 0.03%), the most of any point it scored. Replayed
/// over 40 seeds, this ended the point-in-polygon-like space's searches after a mean of 260
/// points instead of 366, and the wide split-K recording's after 316 instead of 320, every space
/// reaching 5% of the optimum in as many seeds as before at the same mean point; a threshold of
/// 0.1% cut more (231 points) but missed 5% in 2 more seeds of the noisy 384-point split-K one,
/// and 0.3% in 9. A patience set by the user is waited out in full.
constexpr std::size_t exhausted_after = 4;
constexpr double exhausted_gain = 0.0003;
/// Guided: the pair moves (two parameters one level each) a descent tries before it ends at a
/// point that no one-parameter step improves.
constexpr std::size_t pair_tries = 4;

class Neighbourhood {
  public:
    /// `repair`: where a direction holds no point to step to, the nearest valid point one level
    /// that way (of()).
    Neighbourhood(const SearchRun& run, bool repair) : grid_(run) {
        if (!repair) {
            return;
        }
        with_level_.resize(grid_.top().size());
        for (std::size_t axis = 0; axis < grid_.top().size(); ++axis) {
            with_level_[axis].resize(grid_.top()[axis] + 1);
        }
        for (std::size_t p = 0; p < run.size(); ++p) {
            if (const auto& position = run.point(p).position) {
                for (std::size_t axis = 0; axis < position->levels.size(); ++axis) {
                    with_level_[axis][position->levels[axis]].push_back(p);
                }
            }
        }
    }

    /// Per parameter, down first, the nearest point in that direction that is in the space and
    /// has not failed: a sparse grid's missing and failing points are stepped over, so a
    /// descent is not stuck because its one-level neighbours do not exist. With repair, where
    /// a direction holds no such point, the point one level that way nearest in the other
    /// parameters instead: constraints that couple parameters (a tile that must divide by its
    /// threads times its vector width) make a move of one valid only with a move of another.
    std::vector<std::size_t> of(const SearchRun& run, const SearchPoint& point) const {
        std::vector<std::size_t> out;
        if (!point.position) {
            return out;
        }
        GridPosition probe = *point.position;
        for (std::size_t axis = 0; axis < probe.levels.size(); ++axis) {
            const std::size_t level = probe.levels[axis];
            for (const bool up : {false, true}) {
                bool found = false;
                for (std::size_t step = 1;; ++step) {
                    if (up ? level + step > grid_.top()[axis] : step > level) {
                        break;
                    }
                    probe.levels[axis] = up ? level + step : level - step;
                    if (const auto at = grid_.at(probe); at && !run.dropped(*at)) {
                        out.push_back(*at);
                        found = true;
                        break;
                    }
                }
                const std::optional<std::size_t> next = grid_.beside(axis, level, up);
                if (!found && next) {
                    if (const auto near = nearest_at_level(run, *point.position, axis, *next);
                        near && std::ranges::find(out, *near) == out.end()) {
                        out.push_back(*near);
                    }
                }
            }
            probe.levels[axis] = level;
        }
        return out;
    }

    /// A point of the space near `point`: `hop_parameters` times, a parameter drawn at random
    /// (the same one may be drawn twice) moved up or down by 1 to `hop_reach` levels, the other
    /// way when the move would leave the grid, and by what fits when neither way does; nullopt
    /// when the position is outside the space.
    std::optional<std::size_t> hop(SearchRun& run, const SearchPoint& point) const {
        if (!point.position || point.position->levels.empty()) {
            return std::nullopt;
        }
        GridPosition probe = *point.position;
        for (std::size_t h = 0; h < hop_parameters; ++h) {
            const std::size_t axis = run.random().below(probe.levels.size());
            const std::size_t top = grid_.top()[axis];
            const std::size_t level = probe.levels[axis];
            const std::size_t step = std::min(run.random().below(hop_reach) + 1, top);
            const bool drawn_up = run.random().below(2) == 0;
            const bool up = drawn_up ? level + step <= top : step > level;
            probe.levels[axis] = up ? std::min(level + step, top) : level - std::min(step, level);
        }
        return grid_.at(probe);
    }

  private:
    /// The point of `from`'s family with `level` at `axis` that is closest to `from` in the other
    /// parameters (levels apart, summed; then fewest parameters changed; then the lower index)
    /// and has not failed; nullopt without repair or when there is none.
    std::optional<std::size_t> nearest_at_level(const SearchRun& run, const GridPosition& from,
                                                std::size_t axis, std::size_t level) const {
        if (axis >= with_level_.size() || level >= with_level_[axis].size()) {
            return std::nullopt;
        }
        std::optional<std::size_t> nearest;
        std::pair<std::size_t, std::size_t> nearest_distance;
        for (const std::size_t p : with_level_[axis][level]) {
            const GridPosition& to = *run.point(p).position;
            if (to.family != from.family || to.levels.size() != from.levels.size() ||
                run.dropped(p)) {
                continue;
            }
            std::pair<std::size_t, std::size_t> distance{0, 0};
            for (std::size_t other = 0; other < to.levels.size(); ++other) {
                if (other != axis && to.levels[other] != from.levels[other]) {
                    distance.first += to.levels[other] > from.levels[other]
                                          ? to.levels[other] - from.levels[other]
                                          : from.levels[other] - to.levels[other];
                    ++distance.second;
                }
            }
            if (!nearest || distance < nearest_distance) {
                nearest = p;
                nearest_distance = distance;
            }
        }
        return nearest;
    }

    GridIndex grid_;
    /// With repair: per parameter and level, the points at that level.
    std::vector<std::vector<std::vector<std::size_t>>> with_level_;
};

/// The fastest of `points` faster than `here`, each measured to `samples` samples (an
/// unmeasured one only while new points may be proposed).
std::optional<std::pair<std::size_t, double>> faster_among(SearchRun& run,
                                                           const std::vector<std::size_t>& points,
                                                           double here, std::size_t samples) {
    std::optional<std::pair<std::size_t, double>> better;
    double better_ns = here;
    for (const std::size_t n : points) {
        if (!run.touched(n) && !run.can_propose()) {
            break;
        }
        const std::optional<double> there = run.probe(n, samples);
        if (there && *there < better_ns) {
            better.emplace(n, *there);
            better_ns = *there;
        }
    }
    return better;
}

/// `points` less those clearly slower than `current`: its median below the low end of their
/// median interval (with three readings, below all three). A longer look is for a neighbour that
/// read a few per cent slow; taken of every neighbour of a descent's end, it was a quarter to a
/// third of the samples a search took. A wider margin (their interval wholly above the point's)
/// kept more of them on noisy spaces for nothing: replayed over 40 seeds, the wide split-K search
/// took 2,036 samples against 1,537, and split-K 384 came within 5% in 35 seeds against 37.
std::vector<std::size_t> not_clearly_slower(const SearchRun& run, std::vector<std::size_t> points,
                                            std::size_t current) {
    std::erase_if(points, [&](std::size_t p) { return run.clearly_faster(current, p); });
    return points;
}

/// The fastest of `points`, each probed while new points may be proposed; nullopt when none ran.
std::optional<std::pair<std::size_t, double>> fastest_probed(
    SearchRun& run, const std::vector<std::size_t>& points) {
    std::optional<std::pair<std::size_t, double>> best;
    for (const std::size_t p : points) {
        if (!run.can_propose()) {
            break;
        }
        if (const std::optional<double> ns = run.probe(p, grid_probe_samples);
            ns && (!best || *ns < best->second)) {
            best.emplace(p, *ns);
        }
    }
    return best;
}

/// The fastest of `count` points Bayesian optimisation proposes one after another, each
/// probed; nullopt when none ran.
std::optional<std::pair<std::size_t, double>> best_proposed(SearchRun& run, BayesProposer& proposer,
                                                            std::size_t count) {
    std::optional<std::pair<std::size_t, double>> best;
    for (std::size_t k = 0; k < count && run.can_propose(); ++k) {
        const std::optional<std::size_t> p = proposer.next(run);
        if (!p) {
            break;
        }
        if (const std::optional<double> ns = run.probe(*p, grid_probe_samples);
            ns && (!best || *ns < best->second)) {
            best.emplace(*p, *ns);
        }
    }
    return best;
}

/// Proposes unmeasured points in the seeded order, or in the order their levels predict.
class Sampler {
  public:
    explicit Sampler(SearchRun& run) : order_(run.shuffled_order()), next_(order_.begin()) {}

    /// The fastest of up to `count` unmeasured points, each probed (the reference first while
    /// unmeasured); nullopt when none ran.
    std::optional<std::pair<std::size_t, double>> best_of(SearchRun& run, std::size_t count) {
        while (next_ != order_.end() && run.touched(*next_)) {
            ++next_;
        }
        std::vector<std::size_t> points;
        for (auto it = next_; it != order_.end() && points.size() < count; ++it) {
            if (!run.touched(*it)) {
                points.push_back(*it);
            }
        }
        return fastest_probed(run, points);
    }

    /// The fastest of the `count` unmeasured points `effects` predicts fastest (ties: the seeded
    /// order), each probed; random points when it predicts none.
    std::optional<std::pair<std::size_t, double>> best_predicted(SearchRun& run,
                                                                 const LevelEffects& effects,
                                                                 std::size_t count) {
        if (effects.empty()) {
            return best_of(run, count);
        }
        std::vector<std::pair<double, std::size_t>> predicted;
        for (const std::size_t p : order_) {
            if (!run.touched(p) && run.point(p).position) {
                predicted.emplace_back(effects.predict(*run.point(p).position), p);
            }
        }
        if (predicted.empty()) {
            return best_of(run, count);
        }
        std::ranges::stable_sort(predicted, {}, &std::pair<double, std::size_t>::first);
        predicted.resize(std::min(count, predicted.size()));
        std::vector<std::size_t> points;
        for (const auto& candidate : predicted) {
            points.push_back(candidate.second);
        }
        return fastest_probed(run, points);
    }

  private:
    std::vector<std::size_t> order_;
    std::vector<std::size_t>::iterator next_;
};

/// Iterated steepest descent with basin hopping. The first descent starts at the best of a small
/// random sample (guided: at the best point Bayesian optimisation found, leading until
/// `guided_lead_patience` points in a row found nothing clearly better); from a point it measures
/// every neighbour (the nearest point of the space in each direction of each parameter; guided,
/// where a direction has none, the point one level that way nearest in the others), moves to the
/// best if it beats the current point (it and the neighbours not clearly slower measured again,
/// longer, before giving up on a move; guided: then the few moves of two parameters at once the
/// surrogate ranks first), else the descent ends; a descent that steps onto a point an earlier one
/// stood on ends there (it would follow the earlier path). Restarts alternate between a hop from
/// the best point found (2 parameters moved 1 or 2 levels) and the best of the few unmeasured
/// points that the levels measured so far predict fastest (LevelEffects; guided: the best of the
/// few points Bayesian optimisation proposes). Stops when `patience` restarts in a row found
/// nothing clearly better than the best so far (its median below the best's median interval)
/// (guided, with the default patience: also after `exhausted_after` when Bayesian optimisation
/// expects next to nothing more), or on the budget or limit.
std::vector<std::size_t> iterated_descent(SearchRun& run, bool guided) {
    const Neighbourhood neighbourhood(run, guided);
    const std::size_t patience = run.settings().patience.value_or(local_patience);
    // One or the other picks the starts; each draws its own seeded order of the space.
    std::optional<Sampler> sampler;
    std::optional<BayesProposer> proposer;
    if (guided) {
        proposer.emplace(run);
    } else {
        sampler.emplace(run);
    }
    std::optional<std::pair<std::size_t, double>> best;
    std::size_t fruitless = 0;
    std::set<std::size_t> visited;  ///< every point a descent stood on
    for (std::size_t restart = 0; run.can_propose(); ++restart) {
        std::optional<std::pair<std::size_t, double>> start;
        if (best && restart % 2 == 1) {
            for (std::size_t t = 0; t < hop_tries && !start; ++t) {
                if (const auto to = neighbourhood.hop(run, run.point(best->first));
                    to && !run.touched(*to)) {
                    if (const std::optional<double> ns = run.probe(*to, grid_probe_samples)) {
                        start.emplace(*to, *ns);
                    }
                }
            }
        }
        if (restart == 0 && proposer) {
            if (const std::optional<std::size_t> led =
                    bayes_phase(run, *proposer, guided_lead_patience, quiet_lead_patience)) {
                start.emplace(*led, *run.median(*led));
            }
        }
        if (!start && proposer) {
            start = best_proposed(run, *proposer, restart == 0 ? start_sample : restart_sample);
        } else if (!start) {
            start = restart == 0 ? sampler->best_of(run, start_sample)
                                 : sampler->best_predicted(run, LevelEffects(run), restart_sample);
        }
        if (!start) {
            if (run.measured() >= run.size()) {
                break;
            }
            continue;  // every sampled point failed: sample again
        }
        std::size_t current = start->first;
        std::optional<double> here = start->second;
        visited.insert(current);
        while (here && run.can_propose()) {
            auto step = faster_among(run, neighbourhood.of(run, run.point(current)), *here,
                                     grid_probe_samples);
            if (!step) {
                // Stuck on brief readings: look again, longer, before calling it an optimum.
                here = run.probe(current, confirm_samples);
                if (here) {
                    step = faster_among(
                        run,
                        not_clearly_slower(run, neighbourhood.of(run, run.point(current)), current),
                        *here, confirm_samples);
                }
            }
            if (!step && here && proposer) {
                // Two parameters that only pay when both move are no one-parameter step: try the
                // few pair moves most likely to pay before calling this an optimum.
                step = faster_among(run, proposer->predicted_pair_moves(run, current, pair_tries),
                                    *here, grid_probe_samples);
            }
            if (!step) {
                break;
            }
            current = step->first;
            here = step->second;
            // An earlier descent went on from here: it would lead to the optimum it found.
            if (!visited.insert(current).second) {
                break;
            }
        }
        // A restart that ends a little below the best on noisy readings still moves the best,
        // but only one clearly faster earns more patience: else every lucky reading on a loaded
        // machine would extend the search.
        const bool improved = here && (!best || *here < best->second);
        const bool fruitful = improved && (!best || run.clearly_faster(current, best->first));
        if (improved) {
            best.emplace(current, *here);
        }
        fruitless = fruitful ? 0 : fruitless + 1;
        // The surrogate expects nothing worth the rest of the default patience.
        const bool exhausted =
            proposer && !run.settings().patience && fruitless >= exhausted_after &&
            proposer->last_expected_gain().value_or(exhausted_gain) < exhausted_gain;
        if ((fruitless >= patience || exhausted) &&
            run.measured() >= std::min(grid_min_points, run.size())) {
            break;
        }
    }
    std::vector<std::size_t> finalists = run.by_median();
    finalists.resize(std::min(finalists.size(), local_finalists));
    return finalists;
}

}  // namespace

std::vector<std::size_t> search_local(SearchRun& run) {
    return iterated_descent(run, false);
}

std::vector<std::size_t> search_bayes(SearchRun& run) {
    return iterated_descent(run, true);
}

}  // namespace spvtune::tune::detail
