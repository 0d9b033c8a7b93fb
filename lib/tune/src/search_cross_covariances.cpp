#include "search_cross_covariances.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace spvtune::tune::detail {

void CrossCovariances::clear() {
    slot_of_.clear();
    rows_.clear();
    last_fitted_.clear();
    last_slots_.clear();
}

std::vector<double> CrossCovariances::row(std::size_t point, const SurrogateInput& input,
                                          std::span<const std::size_t> fitted,
                                          const LogTimeSurrogate& surrogate) {
    if (!std::ranges::equal(fitted, last_fitted_)) {
        last_fitted_.assign(fitted.begin(), fitted.end());
        last_slots_.clear();
        for (const std::size_t p : fitted) {
            last_slots_.push_back(slot_of_.try_emplace(p, slot_of_.size()).first->second);
        }
    }
    std::vector<double>& kept = rows_[point];
    kept.resize(slot_of_.size(), std::numeric_limits<double>::quiet_NaN());
    std::vector<double> out(fitted.size());
    for (std::size_t i = 0; i < fitted.size(); ++i) {
        double& value = kept[last_slots_[i]];
        if (std::isnan(value)) {
            value = surrogate.covariance_with(input, i);
        }
        out[i] = value;
    }
    return out;
}

}  // namespace spvtune::tune::detail
