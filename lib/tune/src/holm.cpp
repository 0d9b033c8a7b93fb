#include <algorithm>
#include <numeric>
#include <vector>

#include <spvtune/tune/comparison.hpp>

namespace spvtune::tune {

std::vector<double> holm_levels(std::span<const double> p_values, double alpha) {
    const std::size_t arms = p_values.size();
    std::vector<std::size_t> order(arms);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return p_values[a] < p_values[b]; });
    std::vector<double> levels(arms);
    std::size_t step = 0;
    for (; step < arms; ++step) {
        const double level = alpha / static_cast<double>(arms - step);
        if (p_values[order[step]] > level) {
            break;
        }
        levels[order[step]] = level;
    }
    // The first step not rejected ends the procedure: it and every arm after it keep its level,
    // which none of their p-values (all at least its own) reaches.
    for (std::size_t rest = step; rest < arms; ++rest) {
        levels[order[rest]] = alpha / static_cast<double>(arms - step);
    }
    return levels;
}

}  // namespace spvtune::tune
