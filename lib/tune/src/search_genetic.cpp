#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "search_grid.hpp"

namespace spvtune::tune::detail {
namespace {

/// Members of a generation: enough variety that crossover has material, few enough that a
/// generation costs what a descent's neighbourhood does.
constexpr std::size_t population_size = 16;
/// Tries to breed an unmeasured child inside the space before a random point takes its place.
constexpr std::size_t breeding_tries = 8;
/// The best points found go to the final race.
constexpr std::size_t genetic_finalists = 8;

struct Member {
    std::size_t point = 0;
    double median_ns = 0;
};

/// The faster of two members drawn at random (a tournament of two: selection pressure without
/// letting one lucky reading take over the population).
const Member& tournament(SearchRun& run, const std::vector<Member>& population) {
    const Member& a = population[run.random().below(population.size())];
    const Member& b = population[run.random().below(population.size())];
    return b.median_ns < a.median_ns ? b : a;
}

/// A child of two grid points: each parameter's level from either parent (uniform crossover),
/// then each mutated with probability 1 / parameters, so that a child on average differs from
/// its parents' mix in one parameter: half the mutations move one level up or down (so that a
/// population near the best can reach it), half jump to a random level (to leave a basin).
/// Parents of different families (different grids) give a mutated copy of the first.
GridPosition breed(SearchRun& run, const GridIndex& grid, const GridPosition& mother,
                   const GridPosition& father) {
    GridPosition child = mother;
    const bool same_grid =
        mother.family == father.family && mother.levels.size() == father.levels.size();
    for (std::size_t axis = 0; axis < child.levels.size(); ++axis) {
        if (same_grid && run.random().below(2) == 1) {
            child.levels[axis] = father.levels[axis];
        }
        if (run.random().below(child.levels.size()) != 0) {
            continue;
        }
        const std::size_t top = grid.top()[axis];
        if (top == 0) {
            continue;  // one value: nothing to mutate to
        }
        switch (run.random().below(4)) {
            case 0:
                child.levels[axis] = child.levels[axis] > 0 ? child.levels[axis] - 1 : 1;
                break;
            case 1:
                child.levels[axis] = child.levels[axis] < top ? child.levels[axis] + 1 : top - 1;
                break;
            default:
                child.levels[axis] = run.random().below(top + 1);
                break;
        }
    }
    return child;
}

/// Proposes unmeasured points in the seeded random order.
class FreshPoints {
  public:
    explicit FreshPoints(SearchRun& run) : order_(run.shuffled_order()), next_(order_.begin()) {}

    std::optional<std::size_t> next(const SearchRun& run) {
        while (next_ != order_.end() && run.touched(*next_)) {
            ++next_;
        }
        return next_ == order_.end() ? std::nullopt : std::optional(*next_++);
    }

  private:
    std::vector<std::size_t> order_;
    std::vector<std::size_t>::iterator next_;
};

}  // namespace

/// A steady genetic algorithm over the grid: a first generation of random points, then
/// generations of children bred from tournament-selected parents (uniform crossover, one
/// mutation on average), each child an unmeasured point of the space (a random one when
/// breeding keeps landing outside it or on measured points). Parents and children compete: the
/// fastest `population_size` go on. Stops when `patience` generations in a row found nothing
/// clearly faster than the best so far, or on the budget or limit.
std::vector<std::size_t> search_genetic(SearchRun& run) {
    const GridIndex grid(run);
    const std::size_t patience = run.settings().patience.value_or(genetic_patience);
    FreshPoints fresh(run);
    std::vector<Member> population;
    const auto probe = [&](std::size_t point, std::vector<Member>& into) {
        if (const std::optional<double> ns = run.probe(point, grid_probe_samples)) {
            into.push_back({point, *ns});
        }
    };
    while (population.size() < population_size && run.can_propose()) {
        const std::optional<std::size_t> point = fresh.next(run);
        if (!point) {
            break;
        }
        probe(*point, population);
    }
    const auto by_time = [](const Member& a, const Member& b) {
        return a.median_ns < b.median_ns || (a.median_ns == b.median_ns && a.point < b.point);
    };
    std::sort(population.begin(), population.end(), by_time);
    std::size_t fruitless = 0;
    while (!population.empty() && run.can_propose()) {
        const std::size_t best = population.front().point;
        std::vector<Member> children;
        for (std::size_t c = 0; c < population_size && run.can_propose(); ++c) {
            const Member& mother = tournament(run, population);
            const Member& father = tournament(run, population);
            std::optional<std::size_t> child;
            const auto& mother_at = run.point(mother.point).position;
            const auto& father_at = run.point(father.point).position;
            for (std::size_t t = 0; t < breeding_tries && mother_at && father_at && !child; ++t) {
                if (const auto at = grid.at(breed(run, grid, *mother_at, *father_at));
                    at && !run.touched(*at)) {
                    child = at;
                }
            }
            if (!child) {
                child = fresh.next(run);
            }
            if (!child) {
                break;
            }
            probe(*child, children);
        }
        if (children.empty() && !run.can_propose()) {
            break;
        }
        population.insert(population.end(), children.begin(), children.end());
        std::sort(population.begin(), population.end(), by_time);
        population.resize(std::min(population.size(), population_size));
        if (run.clearly_faster(population.front().point, best)) {
            fruitless = 0;
        } else if (++fruitless >= patience &&
                   run.measured() >= std::min(grid_min_points, run.size())) {
            break;
        }
        if (run.measured() >= run.size()) {
            break;
        }
    }
    std::vector<std::size_t> finalists = run.by_median();
    finalists.resize(std::min(finalists.size(), genetic_finalists));
    return finalists;
}

}  // namespace spvtune::tune::detail
