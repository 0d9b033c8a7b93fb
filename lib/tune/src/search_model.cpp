#include "search_model.hpp"

#include <cmath>
#include <utility>
#include <vector>

namespace spvtune::tune::detail {
namespace {

template <typename Visit>
void for_each_level(const GridPosition& position, Visit&& visit) {
    for (std::size_t axis = 0; axis < position.levels.size(); ++axis) {
        visit(std::tuple{position.family, axis, position.levels[axis]});
    }
    visit(std::tuple{position.family, position.levels.size(), std::size_t{0}});
}

}  // namespace

LevelEffects::LevelEffects(const SearchRun& run) {
    std::vector<std::pair<const GridPosition*, double>> seen;
    double total = 0.0;
    for (const std::size_t p : run.touched_points()) {
        const std::optional<double> ns = run.median(p);
        if (run.point(p).position && ns && *ns > 0.0) {
            seen.emplace_back(&*run.point(p).position, std::log(*ns));
            total += seen.back().second;
        }
    }
    if (seen.empty()) {
        return;
    }
    const double mean = total / static_cast<double>(seen.size());
    // Not a structured binding: clang 14 (the fuzz build) cannot capture one in a lambda.
    for (const auto& measured : seen) {
        const double deviation = measured.second - mean;
        for_each_level(*measured.first, [&](const Level& level) {
            Effect& effect = effects_[level];
            effect.sum += deviation;
            ++effect.count;
        });
    }
}

double LevelEffects::predict(const GridPosition& position) const {
    double predicted = 0.0;
    for_each_level(position, [&](const Level& level) {
        if (const auto it = effects_.find(level); it != effects_.end()) {
            // One pseudo-observation of no effect: a level seen once is trusted half.
            predicted += it->second.sum / static_cast<double>(it->second.count + 1);
        }
    });
    return predicted;
}

}  // namespace spvtune::tune::detail
