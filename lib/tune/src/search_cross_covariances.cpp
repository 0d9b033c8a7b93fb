#include "search_cross_covariances.hpp"

#include <cmath>
#include <limits>

namespace spvtune::tune::detail {

void CrossCovariances::clear() {
    slot_of_.clear();
    slots_ = 0;
    rows_.clear();
}

std::vector<std::vector<double>> CrossCovariances::rows(std::span<const std::size_t> points,
                                                        std::span<const SurrogateInput> inputs,
                                                        std::span<const std::size_t> fitted,
                                                        const LogTimeSurrogate& surrogate) {
    std::vector<std::size_t> slots;
    slots.reserve(fitted.size());
    for (const std::size_t p : fitted) {
        if (p >= slot_of_.size()) {
            slot_of_.resize(p + 1, no_slot);
        }
        if (slot_of_[p] == no_slot) {
            slot_of_[p] = slots_++;
        }
        slots.push_back(slot_of_[p]);
    }
    std::vector<std::vector<double>> out;
    out.reserve(points.size());
    for (std::size_t j = 0; j < points.size(); ++j) {
        if (points[j] >= rows_.size()) {
            rows_.resize(points[j] + 1);
        }
        std::vector<double>& kept = rows_[points[j]];
        kept.resize(slots_, std::numeric_limits<double>::quiet_NaN());
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
