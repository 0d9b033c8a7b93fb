#include "search_cross_covariances.hpp"

#include <cmath>
#include <limits>

namespace spvtune::tune::detail {

void CrossCovariances::clear() {
    slot_of_.clear();
    rows_.clear();
}

std::vector<std::vector<double>> CrossCovariances::rows(std::span<const std::size_t> points,
                                                        std::span<const SurrogateInput> inputs,
                                                        std::span<const std::size_t> fitted,
                                                        const LogTimeSurrogate& surrogate) {
    std::vector<std::size_t> slots;
    slots.reserve(fitted.size());
    for (const std::size_t p : fitted) {
        slots.push_back(slot_of_.try_emplace(p, slot_of_.size()).first->second);
    }
    std::vector<std::vector<double>> out;
    out.reserve(points.size());
    for (std::size_t j = 0; j < points.size(); ++j) {
        std::vector<double>& kept = rows_[points[j]];
        kept.resize(slot_of_.size(), std::numeric_limits<double>::quiet_NaN());
        std::vector<double>& row = out.emplace_back(fitted.size());
        for (std::size_t i = 0; i < fitted.size(); ++i) {
            double& value = kept[slots[i]];
            if (std::isnan(value)) {
                value = surrogate.covariance_with(inputs[points[j]], i);
            }
            row[i] = value;
        }
    }
    return out;
}

}  // namespace spvtune::tune::detail
