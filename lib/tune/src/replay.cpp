#include <chrono>
#include <vector>

#include <spvtune/tune/replay.hpp>

#include "search_run.hpp"

namespace spvtune::tune {

SearchOutcome replay_search(const Recording& recording, const SearchSettings& settings,
                            const SamplingSettings& sampling) {
    std::vector<SearchPoint> points;
    points.reserve(recording.points.size());
    for (std::size_t p = 0; p < recording.points.size(); ++p) {
        points.push_back({BenchmarkCandidate{p, recording.points[p].name, 0},
                          GridPosition{0, recording.points[p].levels}});
    }
    // Its own stream, so the draws of recorded repeats never shift the strategy's choices.
    detail::SearchRandom draws(settings.seed ^ 0x5deece66dULL);
    std::chrono::steady_clock::time_point clock{};
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
        const double ns = times[draws.below(times.size())];
        clock += std::chrono::nanoseconds(static_cast<std::int64_t>(ns));
        return Sample{ns, TimingMethod::device_timestamps};
    };
    hooks.now = [&] { return clock; };
    const SearchStrategy strategy = choose_strategy(settings, points.size());
    return run_search(points, strategy, settings, sampling, hooks);
}

}  // namespace spvtune::tune
