#pragma once

#include <algorithm>
#include <functional>
#include <vector>

namespace spvtune::test {

/// The median over `pairs` of numerator() / denominator(), the two measured back to back. On a
/// shared machine a neighbour slows both of a pair alike, so their ratio stays steady where a
/// comparison of separately gathered minima would not.
inline double median_ratio(int pairs, const std::function<double()>& numerator,
                           const std::function<double()>& denominator) {
    std::vector<double> ratios;
    for (int i = 0; i < pairs; ++i) {
        const double top = numerator();
        ratios.push_back(top / denominator());
    }
    std::nth_element(ratios.begin(), ratios.begin() + pairs / 2, ratios.end());
    return ratios[static_cast<std::size_t>(pairs / 2)];
}

}  // namespace spvtune::test
