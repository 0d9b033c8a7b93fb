#include "html_measured.hpp"

namespace spvtune::app {

std::optional<Measured> measured(const JsonView& candidate) {
    const auto statistics = candidate.find("statistics");
    if (!statistics || (*statistics)["samples"].number() <= 0) {
        return std::nullopt;
    }
    const double median = (*statistics)["median_ns"].number();
    const auto low = statistics->find("ci_low_ns");
    const auto high = statistics->find("ci_high_ns");
    return Measured{median, low ? low->number() : median, high ? high->number() : median};
}

}  // namespace spvtune::app
