#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <spvtune/tune/benchmark.hpp>

namespace spvtune::tune {

/// How a contender compares with the baseline, given a threshold t (a fraction, 0.05 for 5%)
/// and the 95% interval of the ratio of times (contender / baseline).
enum class Verdict {
    faster,        ///< the whole interval is below 1 - t
    slower,        ///< the whole interval is above 1 + t
    equivalent,    ///< the whole interval lies within [1 - t, 1 + t]
    inconclusive,  ///< none of those: more samples are needed to say
};

/// "faster", "slower", "equivalent" or "inconclusive".
std::string_view verdict_name(Verdict verdict) noexcept;

/// How much slower the contender is than the baseline (a ratio of times: 1.1 is 10% slower),
/// with its 95% confidence interval.
struct RatioInterval {
    double ratio = 0;
    double low = 0;
    double high = 0;
};

struct ComparisonSettings {
    /// The verdicts' threshold, a fraction of the baseline's median (0.05: ±5%).
    double threshold = 0.05;
    /// Unrecorded runs of every arm before the first round.
    std::size_t warmup_runs = 2;
    /// Rounds before any verdict may end sampling.
    std::size_t min_samples = 10;
    /// The most rounds: each arm gets at most this many samples.
    std::size_t max_samples = 60;
    /// Stop sampling once this much wall time has passed (after at least one round).
    std::optional<std::chrono::milliseconds> time_budget;
    /// The coverage of the reported intervals, and of the verdicts judged on them.
    double confidence = 0.95;
    /// The coverage an early stop needs: sampling ends before `max_samples` only when every
    /// verdict holds at this stricter confidence. A comparison looks at its intervals several
    /// times (see run_comparison); deciding each look at `confidence` would add up their chances
    /// of a false call, so the looks are few and each is held to this level.
    double early_stop_confidence = 0.99;
    /// Bootstrap resamples per interval, and the seed that makes the intervals reproducible.
    std::size_t resamples = 2000;
    std::uint64_t seed = 0x5eed;
};

/// The percentile-bootstrap interval (at `settings.confidence`, 95% by default) of
/// median(contender) / median(baseline): both sample
/// sets are resampled independently, `settings.resamples` times, with a fixed-seed generator,
/// so the same samples always give the same interval. Both spans must be non-empty.
RatioInterval ratio_interval(std::span<const double> baseline, std::span<const double> contender,
                             const ComparisonSettings& settings);

/// For samples measured in interleaved rounds (sample i of each arm from round i, next to each
/// other in time): the median of the per-round ratios contender[i] / baseline[i], with the
/// percentile-bootstrap interval at `settings.confidence` from resampling whole rounds. Drift and
/// load that change between rounds hit both samples of a round alike and cancel in its ratio, so
/// the interval is narrower than ratio_interval's for the same samples. Pairs the first min(sizes)
/// rounds; both spans must be non-empty.
RatioInterval paired_ratio_interval(std::span<const double> baseline,
                                    std::span<const double> contender,
                                    const ComparisonSettings& settings);

/// The verdict an interval gives at `threshold` (see Verdict).
Verdict judge(const RatioInterval& interval, double threshold);

/// For an inconclusive interval from `samples` samples per arm: about how many samples per arm
/// would settle it, assuming its width shrinks as 1 / sqrt(samples) around the same ratio.
/// Nothing when the ratio sits on a threshold's edge, or so near it that more than 100 times
/// `samples` would be needed (no practical sample count settles it).
std::optional<std::size_t> samples_to_settle(const RatioInterval& interval, std::size_t samples,
                                             double threshold);

/// The coefficient of variation (sample standard deviation / mean) of `samples`; 0 for fewer
/// than two samples.
double coefficient_of_variation(std::span<const double> samples);

/// A coefficient of variation that a few outliers cannot inflate: 1.4826 times the median absolute
/// deviation, over the median (the two agree for normal samples); 0 for fewer than two samples.
double robust_coefficient_of_variation(std::span<const double> samples);

/// Whether the baseline's noise `cv` is too high to settle a verdict at `threshold` within
/// `max_samples`: the expected half-width of the median's interval is over half the threshold.
bool too_noisy_for(double cv, double threshold, std::size_t max_samples);

/// One contender's result.
struct ContenderComparison {
    std::size_t arm = 0;
    RatioInterval interval;
    Verdict verdict = Verdict::inconclusive;
    /// Set for an inconclusive verdict: about how many samples per arm would settle it.
    std::optional<std::size_t> samples_to_settle;
};

/// What a comparison measured: every arm's samples (arm 0 is the baseline) and the contenders'
/// verdicts. An arm whose sample failed stops there: its error is kept and it has no verdict.
struct ComparisonOutcome {
    std::vector<std::vector<double>> samples;
    std::vector<std::optional<std::string>> errors;
    std::vector<ContenderComparison> contenders;
    double baseline_cv = 0;
    std::size_t rounds = 0;
};

/// The verdicts of samples measured elsewhere (saved results): arm 0 is the baseline; an arm
/// without samples gets no verdict, and no arm gets one when the baseline has none.
ComparisonOutcome compare_samples(std::vector<std::vector<double>> samples,
                                  const ComparisonSettings& settings);

/// Measures arm 0 (the baseline) and arms 1..arms-1 (the contenders) through `measure`,
/// interleaved: warm-ups, then rounds of one sample per arm, in alternating order (A B C, then
/// C B A) so drift hits every arm alike, and judged round by round (paired_ratio_interval). It
/// looks at its intervals after `min_samples` rounds (never fewer than a 99% interval of a median
/// needs) and again each time the rounds double; it stops at a look where every contender's
/// verdict is settled (not inconclusive) at `early_stop_confidence`, else at `max_samples` or the
/// time budget. The verdicts it returns are judged at `confidence`: a verdict that stopped
/// sampling early holds there too, since the stricter interval contains that one. A failed
/// baseline ends the comparison (no verdicts).
ComparisonOutcome run_comparison(std::size_t arms, const ComparisonSettings& settings,
                                 const SampleSource& measure);

}  // namespace spvtune::tune
