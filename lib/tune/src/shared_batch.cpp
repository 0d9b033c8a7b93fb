#include <algorithm>

#include <spvtune/tune/shared_batch.hpp>

namespace spvtune::tune {

std::uint64_t SharedBatch::runs_for(std::size_t candidate) const {
    if (!calibrated_[candidate]) {
        return own_runs;
    }
    std::uint64_t largest = 0;
    for (const auto& runs : calibrated_) {
        largest = std::max(largest, runs.value_or(0));
    }
    return std::min(largest, *calibrated_[candidate] * max_stretch);
}

void SharedBatch::measured(std::size_t candidate, const Sample& sample) {
    if (!calibrated_[candidate]) {
        calibrated_[candidate] = std::max<std::uint64_t>(sample.runs, 1);
    }
}

}  // namespace spvtune::tune
