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
#include <spvtune/tune/statistics.hpp>

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
    /// The family-wise confidence of the verdicts: the chance that no contender of the whole
    /// run (every key and contender, `family_size` arms) is called faster or slower in the wrong
    /// direction is at least this. judge_family splits 1 - confidence over the looks sampling
    /// takes (a union bound: each look is another chance of a false call) and over the arms by
    /// Holm's step-down, so each arm's interval has its own, higher coverage.
    double confidence = 0.95;
    /// The arms whose verdicts this comparison's confidence covers together: all the contenders
    /// of all the keys of one run. Sampling stops at a look where every arm is settled at the
    /// Bonferroni level (1 - confidence) / (looks x family_size), which Holm's step-down at the
    /// end never undoes.
    std::size_t family_size = 1;
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

/// For samples measured apart: the smallest significance level at which ratio_interval (at
/// coverage 1 - level) would lie wholly beyond the threshold's band, on either side; 1 when the
/// resampled ratios point neither way. Holm's step-down orders arms by it.
double ratio_p_value(std::span<const double> baseline, std::span<const double> contender,
                     double threshold, const ComparisonSettings& settings);

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

/// The two-sided sign test's p-value of `at_most` of n values lying on one side of a bound:
/// min(1, 2 P(Binomial(n, 1/2) <= at_most)). The median's interval at confidence 1 - alpha
/// (median_confidence_ranks), where it reaches that level, excludes the bound exactly when this
/// is <= alpha.
double sign_test_p_value(std::size_t n, std::size_t at_most);

/// Holm's step-down at family-wise level `alpha` over the arms' p-values: the level each arm is
/// judged at. In ascending order of p-value the i-th arm (0-based) of m gets alpha / (m - i) while
/// every arm before it was rejected (p <= its level); the first arm not rejected and all after
/// it get that first failing step's level, at which none of them is rejected either. Ties keep
/// the arms' order.
std::vector<double> holm_levels(std::span<const double> p_values, double alpha);

/// The significance level one look of a sequential comparison may spend: the family's
/// 1 - confidence split evenly over `looks` looks (a union bound over the looks).
double look_level(const ComparisonSettings& settings, std::size_t looks);

/// One contender's result.
struct ContenderComparison {
    std::size_t arm = 0;
    RatioInterval interval;
    Verdict verdict = Verdict::inconclusive;
    /// Set for an inconclusive verdict: about how many samples per arm would settle it.
    std::optional<std::size_t> samples_to_settle;
    /// The smallest significance level at which the arm would be called faster or slower (1 when
    /// its data point neither way): what Holm's step-down orders the arms by.
    double p_value = 1;
    /// The significance level the verdict was judged at: 1 - `confidence` (over the looks and
    /// the family) until judge_family assigns the arm its step of the family's Holm procedure.
    double level = 0.05;
    /// The coverage `interval` really has: 1 - `level`, or less where too few rounds make it only
    /// the rounds' whole range (five rounds cover their median 93.75% of the time, not 97.5%).
    double coverage = 0.95;
};

/// Whether the contender is slower than `ratio` times the baseline at the level its verdict was
/// judged at: its interval reaches that level and lies wholly above `ratio`. What a CI gate such
/// as `--fail-if-slower` asks; a few rounds all above it are no such evidence.
bool confidently_slower_than(const ContenderComparison& judged, double ratio);

/// The judgement of interleaved rounds at significance `level`: the median of the per-round
/// ratios contender[i] / baseline[i] with its sign-test interval at coverage 1 - level (taken
/// over log-ratios, so that exp of an order statistic is an order statistic of the ratios), and
/// the verdict from the sign test against the threshold's edges, which agrees with judge() on
/// that interval. With too few rounds for the level the interval shown is the rounds' whole
/// range and the verdict inconclusive. Pairs the first min(sizes) rounds.
ContenderComparison judge_paired(std::span<const double> baseline,
                                 std::span<const double> contender, double threshold, double level);

/// What a comparison measured: every arm's samples (arm 0 is the baseline) and the contenders'
/// verdicts. An arm whose sample failed stops there: its error is kept and it has no verdict.
struct ComparisonOutcome {
    std::vector<std::vector<double>> samples;
    std::vector<std::optional<std::string>> errors;
    std::vector<ContenderComparison> contenders;
    double baseline_cv = 0;
    std::size_t rounds = 0;
    /// Whether the arms were measured in interleaved rounds (paired sign-test intervals) rather
    /// than apart (saved results: bootstrap intervals of the ratio of medians).
    bool paired = false;
    /// The looks at the data its sampling planned (1 for saved results): each is a chance of a
    /// false call, so the family's error is split over them.
    std::size_t looks = 1;
};

/// The verdicts of samples measured elsewhere (saved results): arm 0 is the baseline; an arm
/// without samples gets no verdict, and no arm gets one when the baseline has none. Each arm is
/// judged at the Bonferroni level (1 - confidence) / family_size, until judge_family re-judges.
ComparisonOutcome compare_samples(std::vector<std::vector<double>> samples,
                                  const ComparisonSettings& settings);

/// Measures arm 0 (the baseline) and arms 1..arms-1 (the contenders) through `measure`,
/// interleaved: warm-ups, then rounds of one sample per arm, in alternating order (A B C, then
/// C B A) so drift hits every arm alike, and judged round by round (judge_paired). It looks at its
/// intervals after `min_samples` rounds (never fewer than the sign test needs at the look's level)
/// and again each time the rounds double, and stops at a look where every contender's verdict is
/// settled (not inconclusive) at look_level(settings, outcome.looks) / family_size; else at
/// `max_samples` or the time budget. The verdicts it returns are judged at that same Bonferroni
/// level; judge_family re-judges them with the run's whole family. A failed baseline ends the
/// comparison (no verdicts).
ComparisonOutcome run_comparison(std::size_t arms, const ComparisonSettings& settings,
                                 const SampleSource& measure);

/// What judge_family did: the method, the number of arms it covered and the level it spent.
struct FamilyJudgement {
    std::size_t size = 0;        ///< the contenders judged together (every key's)
    std::size_t looks = 1;       ///< the most looks any of them planned
    double family_level = 0.05;  ///< 1 - confidence, over the whole run
    double look_level = 0.05;    ///< family_level / looks: what Holm's step-down spends
};

/// Re-judges every contender of one run's comparisons together, so that the chance of any false
/// faster or slower call in the whole run stays below 1 - confidence: Holm's step-down
/// (holm_levels) over all their p-values at look_level(settings, most looks), each arm's interval
/// and verdict taken again at the level Holm assigns it. Sets each contender's `level` and
/// `coverage`.
FamilyJudgement judge_family(std::span<ComparisonOutcome* const> outcomes,
                             const ComparisonSettings& settings);

}  // namespace spvtune::tune
