#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "search_run.hpp"

namespace spvtune::tune::detail {
namespace {

/// Samples per probe: the median of three survives one disturbed reading, and a probe's cost is
/// mostly the check run and the pipeline anyway.
constexpr std::size_t probe_samples = 3;
/// Samples of a point and its neighbours before the search accepts the point as a local optimum:
/// brief readings on a loaded machine can fake one (a neighbour read a few per cent slow).
constexpr std::size_t confirm_samples = 9;
/// The search ends after this many restarts in a row that found nothing better.
constexpr std::size_t patience = 2;
/// ... but not before it measured this many points (a space without grid positions has no
/// neighbours: every point is a restart there).
constexpr std::size_t min_points = 24;
/// The best points found go to the final race.
constexpr std::size_t local_finalists = 8;

class Neighbourhood {
  public:
    explicit Neighbourhood(const SearchRun& run) {
        for (std::size_t p = 0; p < run.size(); ++p) {
            if (const auto& position = run.point(p).position) {
                at_.emplace(*position, p);
            }
        }
    }

    /// The points one level up or down in one parameter, in parameter order, down first.
    std::vector<std::size_t> of(const SearchPoint& point) const {
        std::vector<std::size_t> out;
        if (!point.position) {
            return out;
        }
        GridPosition probe = *point.position;
        for (std::size_t axis = 0; axis < probe.levels.size(); ++axis) {
            const std::size_t level = probe.levels[axis];
            for (const bool up : {false, true}) {
                if (!up && level == 0) {
                    continue;
                }
                probe.levels[axis] = up ? level + 1 : level - 1;
                if (const auto it = at_.find(probe); it != at_.end()) {
                    out.push_back(it->second);
                }
            }
            probe.levels[axis] = level;
        }
        return out;
    }

  private:
    std::map<GridPosition, std::size_t> at_;
};

/// The fastest neighbour of `current` faster than `here`, each measured to `samples` samples
/// (an unmeasured one only while new points may be proposed; `measured` counts those).
std::optional<std::pair<std::size_t, double>> faster_neighbour(SearchRun& run,
                                                               const Neighbourhood& neighbourhood,
                                                               std::size_t current, double here,
                                                               std::size_t samples,
                                                               std::size_t& measured) {
    std::optional<std::pair<std::size_t, double>> better;
    double better_ns = here;
    for (const std::size_t n : neighbourhood.of(run.point(current))) {
        if (!run.touched(n)) {
            if (!run.can_propose()) {
                break;
            }
            ++measured;
        }
        const std::optional<double> there = run.probe(n, samples);
        if (there && *there < better_ns) {
            better.emplace(n, *there);
            better_ns = *there;
        }
    }
    return better;
}

}  // namespace

/// Iterated steepest descent: from the start, measure every neighbour, move to the best if it
/// beats the current point (measured again, longer, before giving up on a move), else restart from
/// a random unmeasured point; a descent that steps onto a point an earlier one stood on ends there
/// (it would follow the earlier path). Stops when `patience` restarts in a row found nothing better
/// than the best so far (or on the budget or limit).
std::vector<std::size_t> search_local(SearchRun& run) {
    const Neighbourhood neighbourhood(run);
    const std::vector<std::size_t> restarts = run.shuffled_order();
    auto next_restart = restarts.begin();
    std::optional<double> best;
    std::size_t fruitless = 0;
    std::size_t measured = 0;
    std::set<std::size_t> visited;  ///< every point a descent stood on
    while (run.can_propose()) {
        // A restart: the next point of the seeded order not measured yet (the reference first).
        while (next_restart != restarts.end() && run.touched(*next_restart)) {
            ++next_restart;
        }
        if (next_restart == restarts.end()) {
            break;
        }
        std::size_t current = *next_restart;
        visited.insert(current);
        std::optional<double> here = run.probe(current, probe_samples);
        ++measured;
        while (here && run.can_propose()) {
            auto step =
                faster_neighbour(run, neighbourhood, current, *here, probe_samples, measured);
            if (!step) {
                // Stuck on brief readings: look again, longer, before calling it an optimum.
                here = run.probe(current, confirm_samples);
                if (here) {
                    step = faster_neighbour(run, neighbourhood, current, *here, confirm_samples,
                                            measured);
                }
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
        if (here && (!best || *here < *best)) {
            best = here;
            fruitless = 0;
        } else if (++fruitless >= patience && measured >= std::min(min_points, run.size())) {
            break;
        }
    }
    std::vector<std::size_t> finalists = run.by_median();
    finalists.resize(std::min(finalists.size(), local_finalists));
    return finalists;
}

}  // namespace spvtune::tune::detail
