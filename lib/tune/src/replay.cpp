#include <algorithm>
#include <chrono>
#include <cmath>
#include <numbers>
#include <vector>

#include <spvtune/tune/replay.hpp>

#include "search_run.hpp"

namespace spvtune::tune {
namespace {

/// Uniform in (0, 1): 53 random bits, never 0, so that its logarithm is finite.
double open_unit(detail::SearchRandom& draws) {
    return (static_cast<double>(draws.next() >> 11U) + 0.5) * 0x1.0p-53;
}

/// A log-normal factor of mean 1 and coefficient of variation `cv`, from a standard normal drawn
/// by Box-Muller (the library's own, so a seed gives the same draws everywhere).
double lognormal_factor(detail::SearchRandom& draws, double cv) {
    const double sigma_squared = std::log1p(cv * cv);
    // Drawn in this order: operands of one expression could be drawn in either.
    const double radius = std::sqrt(-2 * std::log(open_unit(draws)));
    const double angle = 2 * std::numbers::pi * open_unit(draws);
    const double normal = radius * std::cos(angle);
    return std::exp(std::sqrt(sigma_squared) * normal - sigma_squared / 2);
}

}  // namespace

SearchOutcome replay_search(const Recording& recording, const SearchSettings& settings,
                            const SamplingSettings& sampling, const ReplayNoise& noise) {
    std::vector<SearchPoint> points;
    points.reserve(recording.points.size());
    for (std::size_t p = 0; p < recording.points.size(); ++p) {
        points.push_back({BenchmarkCandidate{p, recording.points[p].name, 0},
                          GridPosition{0, recording.points[p].levels}});
    }
    // Its own stream, so the draws of recorded repeats never shift the strategy's choices.
    detail::SearchRandom draws(settings.seed ^ 0x5deece66dULL);
    // A recorded time is only known to be finite and positive (a damaged file may hold 1e70
    // ms): the virtual clock saturates where a count of nanoseconds would overflow.
    constexpr double most_elapsed_ns = 1e18;
    double elapsed_ns = 0;
    SearchHooks hooks;
    hooks.admit = [&](std::size_t index) -> std::optional<CandidateFailure> {
        const RecordedPoint& point = recording.points[index];
        if (point.error.empty()) {
            return std::nullopt;
        }
        return CandidateFailure{point.name, index, FailureKind::error,
                                "recorded failure: " + point.error};
    };
    hooks.measure = [&](std::size_t index) -> Result<Sample> {
        const std::vector<double>& times = recording.points[index].times_ns;
        const double ns = noise.cv ? recorded_mean_ns(recording.points[index]) *
                                         lognormal_factor(draws, *noise.cv)
                                   : times[draws.below(times.size())];
        elapsed_ns = std::min(elapsed_ns + ns, most_elapsed_ns);
        return Sample{ns, TimingMethod::device_timestamps};
    };
    hooks.now = [&] {
        return std::chrono::steady_clock::time_point(
            std::chrono::nanoseconds(static_cast<std::int64_t>(elapsed_ns)));
    };
    const SearchStrategy strategy = choose_strategy(settings, points.size());
    return run_search(points, strategy, settings, sampling, hooks);
}

}  // namespace spvtune::tune
