#include <algorithm>
#include <chrono>
#include <cmath>
#include <utility>

#include <spvtune/base/enum_names.hpp>
#include <spvtune/tune/comparison.hpp>
#include <spvtune/tune/statistics.hpp>

namespace spvtune::tune {

namespace {

constexpr base::EnumNames<Verdict, 4> verdict_names{{
    {Verdict::faster, "faster"},
    {Verdict::slower, "slower"},
    {Verdict::equivalent, "equivalent"},
    {Verdict::inconclusive, "inconclusive"},
}};

}  // namespace

std::string_view verdict_name(Verdict verdict) noexcept {
    return base::name_of(verdict_names, verdict);
}

Verdict judge(const RatioInterval& interval, double threshold) {
    if (interval.low > 1 + threshold) {
        return Verdict::slower;
    }
    if (interval.high < 1 - threshold) {
        return Verdict::faster;
    }
    if (interval.low >= 1 - threshold && interval.high <= 1 + threshold) {
        return Verdict::equivalent;
    }
    return Verdict::inconclusive;
}

std::optional<std::size_t> samples_to_settle(const RatioInterval& interval, std::size_t samples,
                                             double threshold) {
    const double half_width =
        std::max(interval.ratio - interval.low, interval.high - interval.ratio);
    // The interval settles once it no longer reaches the nearest edge of the threshold band.
    const double gap = std::min(std::abs(interval.ratio - (1 - threshold)),
                                std::abs(interval.ratio - (1 + threshold)));
    if (gap <= 1e-9 * std::max(interval.ratio, 1.0) || samples == 0) {
        return std::nullopt;
    }
    const double needed =
        std::ceil(static_cast<double>(samples) * (half_width / gap) * (half_width / gap));
    // Beyond a hundred times the samples so far the extrapolation is no advice: the ratio sits
    // too close to an edge for any practical sample count.
    if (!std::isfinite(needed) || needed > 100 * static_cast<double>(samples)) {
        return std::nullopt;
    }
    return std::max(static_cast<std::size_t>(needed), samples + 1);
}

namespace {

/// How the samples of two arms were taken: in the same interleaved rounds, or apart.
enum class Pairing { rounds, none };

RatioInterval interval_of(const std::vector<std::vector<double>>& samples, std::size_t arm,
                          const ComparisonSettings& settings, Pairing pairing) {
    return pairing == Pairing::rounds ? paired_ratio_interval(samples[0], samples[arm], settings)
                                      : ratio_interval(samples[0], samples[arm], settings);
}

ContenderComparison judge_arm(const std::vector<std::vector<double>>& samples, std::size_t arm,
                              const ComparisonSettings& settings, Pairing pairing) {
    ContenderComparison contender;
    contender.arm = arm;
    contender.interval = interval_of(samples, arm, settings, pairing);
    contender.verdict = judge(contender.interval, settings.threshold);
    if (contender.verdict == Verdict::inconclusive) {
        contender.samples_to_settle =
            samples_to_settle(contender.interval, std::min(samples[0].size(), samples[arm].size()),
                              settings.threshold);
    }
    return contender;
}

class Comparison {
  public:
    Comparison(std::size_t arms, const ComparisonSettings& settings, const SampleSource& measure)
        : settings_(settings), early_stop_(settings), measure_(measure) {
        early_stop_.confidence = std::max(settings.confidence, settings.early_stop_confidence);
        outcome_.samples.resize(arms);
        outcome_.errors.resize(arms);
    }

    ComparisonOutcome run() {
        const auto start = std::chrono::steady_clock::now();
        warm_up();
        // A verdict may end sampling only at a look; the looks are few (the first after
        // min_samples rounds, then each time the rounds double), and each is held to the stricter
        // early-stop confidence, so that peeking does not add up to a false call. Below the
        // samples a median's interval needs for that coverage, its bootstrap interval is too
        // narrow: the first look comes no sooner.
        std::size_t next_look = std::max<std::size_t>(
            {settings_.min_samples, samples_for_coverage(early_stop_.confidence), 1});
        for (std::size_t round = 0; round < std::max<std::size_t>(settings_.max_samples, 1);
             ++round) {
            if (!live(0)) {
                break;
            }
            sample_round(round);
            outcome_.rounds = round + 1;
            if (outcome_.rounds == next_look) {
                next_look *= 2;
                if (all_settled()) {
                    break;
                }
            }
            if (settings_.time_budget &&
                std::chrono::steady_clock::now() - start >= *settings_.time_budget) {
                break;
            }
        }
        judge_all();
        return std::move(outcome_);
    }

  private:
    std::size_t arms() const { return outcome_.samples.size(); }
    bool live(std::size_t arm) const { return !outcome_.errors[arm].has_value(); }

    void fail(std::size_t arm, const std::string& stage, const std::string& error) {
        outcome_.errors[arm] = stage + ": " + error;
    }

    void warm_up() {
        for (std::size_t arm = 0; arm < arms(); ++arm) {
            for (std::size_t run = 0; run < settings_.warmup_runs && live(arm); ++run) {
                Result<Sample> sample = measure_(arm);
                if (!sample) {
                    fail(arm, "warm-up", sample.error());
                }
            }
        }
    }

    void sample_round(std::size_t round) {
        for (std::size_t i = 0; i < arms(); ++i) {
            const std::size_t arm = round % 2 == 0 ? i : arms() - 1 - i;
            if (!live(arm)) {
                continue;
            }
            Result<Sample> sample = measure_(arm);
            if (!sample) {
                fail(arm, "sample " + std::to_string(round + 1), sample.error());
                continue;
            }
            outcome_.samples[arm].push_back(sample.value().ns_per_run);
        }
    }

    bool measured(std::size_t arm) const { return live(arm) && !outcome_.samples[arm].empty(); }

    bool all_settled() const {
        for (std::size_t arm = 1; arm < arms(); ++arm) {
            if (measured(arm) &&
                judge(interval_of(outcome_.samples, arm, early_stop_, Pairing::rounds),
                      settings_.threshold) == Verdict::inconclusive) {
                return false;
            }
        }
        return true;
    }

    void judge_all() {
        if (!measured(0)) {
            return;
        }
        outcome_.baseline_cv = coefficient_of_variation(outcome_.samples[0]);
        for (std::size_t arm = 1; arm < arms(); ++arm) {
            if (measured(arm)) {
                outcome_.contenders.push_back(
                    judge_arm(outcome_.samples, arm, settings_, Pairing::rounds));
            }
        }
    }

    const ComparisonSettings& settings_;
    ComparisonSettings early_stop_;  ///< settings_ at the early-stop confidence
    const SampleSource& measure_;
    ComparisonOutcome outcome_;
};

}  // namespace

ComparisonOutcome compare_samples(std::vector<std::vector<double>> samples,
                                  const ComparisonSettings& settings) {
    ComparisonOutcome outcome;
    outcome.samples = std::move(samples);
    outcome.errors.resize(outcome.samples.size());
    if (outcome.samples.empty() || outcome.samples[0].empty()) {
        return outcome;
    }
    outcome.baseline_cv = coefficient_of_variation(outcome.samples[0]);
    for (std::size_t arm = 1; arm < outcome.samples.size(); ++arm) {
        outcome.rounds = std::max(outcome.rounds, outcome.samples[arm].size());
        if (!outcome.samples[arm].empty()) {
            // Saved runs were measured apart: no round of one has a partner in the other.
            outcome.contenders.push_back(judge_arm(outcome.samples, arm, settings, Pairing::none));
        }
    }
    return outcome;
}

ComparisonOutcome run_comparison(std::size_t arms, const ComparisonSettings& settings,
                                 const SampleSource& measure) {
    return Comparison(arms, settings, measure).run();
}

}  // namespace spvtune::tune
