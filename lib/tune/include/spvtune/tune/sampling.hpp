#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>

#include <nlohmann/json.hpp>

#include <spvtune/tune/result.hpp>
#include <spvtune/tune/tune_entry.hpp>

namespace spvtune::tune {

/// One measured sample: the time of one run of a candidate, and how it was taken. A backend that
/// repeats a dispatch N times between timestamps reports the per-dispatch time.
struct Sample {
    double ns_per_run = 0;
    TimingMethod method = TimingMethod::host_clock;
    /// How many runs the sample timed (a batch): `ns_per_run * runs` is the time it measured,
    /// which reports add up to show how much of tuning was spent running kernels.
    std::uint64_t runs = 1;
};

/// The most samples one submission may hold (SamplingSettings::samples_per_submission).
inline constexpr std::size_t max_samples_per_submission = 64;

enum class SamplingMode {
    adaptive,  ///< round-robin with early elimination and a stability stop
    fixed,     ///< exactly `warmup_runs` warm-ups and `max_samples` samples per candidate
};

// Cache-file spellings (the sampling settings recorded with each entry).
NLOHMANN_JSON_SERIALIZE_ENUM(SamplingMode, {
                                               {SamplingMode::adaptive, "adaptive"},
                                               {SamplingMode::fixed, "fixed"},
                                           })

/// How the tuner measures candidates. Stored as JSON in every TuneEntry it produces.
struct SamplingSettings {
    SamplingMode mode = SamplingMode::adaptive;
    /// Unrecorded runs per candidate before sampling (caches, clocks, lazy compilation).
    /// Adaptive: up to 8 more while each run is still over 10% faster than the one before.
    std::size_t warmup_runs = 2;
    /// Adaptive: samples every live candidate gets before any elimination or stop; never fewer
    /// than the samples_for_coverage(0.95) that a 95% interval of the median needs (6), and no
    /// decision at all when max_samples is below that.
    std::size_t min_samples = 10;
    /// Adaptive: the cap on samples per candidate. Fixed: the exact number.
    std::size_t max_samples = 60;
    /// Samples a candidate takes in each round of the race, in one submission where the backend
    /// can (each over the shared batch, between its own timestamps): the fixed cost of a call
    /// and a submission is then paid once per round. Decisions are taken after whole rounds.
    /// 1 to max_samples_per_submission.
    std::size_t samples_per_submission = 1;
    /// Adaptive: a candidate whose per-round ratio to the leader has an interval whose low end
    /// exceeds this multiple of 1 - `indifference` (it cannot beat the leader by more than that)
    /// is eliminated (at least two candidates always stay live).
    double elimination_ratio = 1.0;
    /// Adaptive: a ratio to the leader whose interval is narrower than this fraction of it
    /// counts as settled.
    double stable_relative_width = 0.05;
    /// Adaptive: a candidate whose first sample is more than this multiple of the fastest first
    /// sample is eliminated at once, without further samples (the hopeless cost one run). Well
    /// under 20 so that a candidate 20 times slower is cut even when its first sample reads up
    /// to 40% low, and not far under, since on a loaded machine one sample can read several
    /// times its true time and a true leader must not be cut on one such reading.
    double hopeless_ratio = 12.0;
    /// Adaptive: candidates whose per-round ratio to the leader confidently stays above 1 minus
    /// this fraction cannot beat it meaningfully: sampling stops when no other can, and a
    /// candidate not confidently slower than the winner by more than it is reported tied.
    double indifference = 0.02;
    /// Stop sampling once this much wall time has passed (every live candidate keeps >= 1 sample).
    std::optional<std::chrono::milliseconds> time_budget;
    /// Stop sampling a candidate once its samples add up to this much measured time (each
    /// sample counts ns_per_run * runs; it keeps the samples it has, at least one), so one slow
    /// candidate cannot take the whole key's time. Nullopt: no cap.
    std::optional<std::chrono::milliseconds> candidate_budget = std::chrono::seconds(10);

    /// Fixed mode with `warmups` warm-up runs and `samples` samples per candidate.
    static SamplingSettings fixed(std::size_t warmups, std::size_t samples);

    friend bool operator==(const SamplingSettings&, const SamplingSettings&) = default;
};

void to_json(nlohmann::json& json, const SamplingSettings& settings);
/// Reads what to_json writes; absent members keep their defaults. Throws nlohmann::json::exception
/// on a wrong type, std::invalid_argument on an unknown mode.
void from_json(const nlohmann::json& json, SamplingSettings& settings);

/// `samples` samples of `take_one`, one call each, for a source that cannot take several at
/// once; the first error ends it.
Result<std::vector<Sample>> one_call_each(std::size_t samples,
                                          const std::function<Result<Sample>()>& take_one);

/// The backend-free default measurement: times `run_once` with the steady host clock, repeating
/// it in doubling batches until a batch spans `min_window` so tiny callables are not lost in clock
/// granularity. Reports the time per run, TimingMethod::host_clock, or the first run's error.
Result<Sample> measure_with_host_clock(
    const std::function<Status()>& run_once,
    std::chrono::nanoseconds min_window = std::chrono::microseconds(20));

}  // namespace spvtune::tune
