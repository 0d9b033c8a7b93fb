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

double look_level(const ComparisonSettings& settings, std::size_t looks) {
    return (1 - settings.confidence) / static_cast<double>(std::max<std::size_t>(looks, 1));
}

bool confidently_slower_than(const ContenderComparison& judged, double ratio) {
    return judged.coverage >= 1 - judged.level && judged.interval.low > ratio;
}

namespace {

/// Saved samples, measured apart: the bootstrap's interval of the ratio of medians at coverage
/// 1 - level. Its resamples grow with 1 / level so that the interval's tails hold enough of them.
ContenderComparison judge_apart(std::span<const double> baseline, std::span<const double> contender,
                                const ComparisonSettings& settings, double level) {
    ComparisonSettings at_level = settings;
    at_level.confidence = 1 - level;
    at_level.resamples =
        std::max(settings.resamples, static_cast<std::size_t>(std::ceil(40 / level)));
    ContenderComparison judged;
    judged.level = level;
    judged.coverage = at_level.confidence;
    judged.interval = ratio_interval(baseline, contender, at_level);
    judged.verdict = judge(judged.interval, settings.threshold);
    judged.p_value = ratio_p_value(baseline, contender, settings.threshold, at_level);
    if (judged.verdict == Verdict::inconclusive) {
        judged.samples_to_settle = samples_to_settle(
            judged.interval, std::min(baseline.size(), contender.size()), settings.threshold);
    }
    return judged;
}

ContenderComparison judge_arm(const ComparisonOutcome& outcome, std::size_t arm,
                              const ComparisonSettings& settings, double level) {
    ContenderComparison judged =
        outcome.paired
            ? judge_paired(outcome.samples[0], outcome.samples[arm], settings.threshold, level)
            : judge_apart(outcome.samples[0], outcome.samples[arm], settings, level);
    judged.arm = arm;
    return judged;
}

/// The fewest values whose median interval exists at `level`: 2^-(n-1) <= level.
std::size_t rounds_for_level(double level) {
    std::size_t rounds = 1;
    while (std::ldexp(1.0, 1 - static_cast<int>(rounds)) > level && rounds < 64) {
        ++rounds;
    }
    return rounds;
}

class Comparison {
  public:
    Comparison(std::size_t arms, const ComparisonSettings& settings, const SampleSource& measure)
        : settings_(settings), measure_(measure) {
        outcome_.samples.resize(arms);
        outcome_.errors.resize(arms);
        outcome_.paired = true;
        // The looks: after min_samples rounds, then each time the rounds double up to
        // max_samples; one more for a stop between looks (the time budget, or max_samples off
        // the doubling). Each spends an equal share of the family's error.
        const std::size_t max_rounds = std::max<std::size_t>(settings.max_samples, 1);
        std::size_t first = std::max<std::size_t>(settings.min_samples, 1);
        outcome_.looks = 1;
        for (std::size_t look = first; look <= max_rounds; look *= 2) {
            ++outcome_.looks;
        }
        level_ = look_level(settings, outcome_.looks) /
                 static_cast<double>(std::max<std::size_t>(settings.family_size, 1));
        // Below the rounds a median interval needs at that level, no look can settle anything.
        first_look_ = std::max(first, rounds_for_level(level_));
    }

    ComparisonOutcome run() {
        const auto start = std::chrono::steady_clock::now();
        warm_up();
        std::size_t next_look = first_look_;
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
                judge_arm(outcome_, arm, settings_, level_).verdict == Verdict::inconclusive) {
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
                outcome_.contenders.push_back(judge_arm(outcome_, arm, settings_, level_));
            }
        }
    }

    const ComparisonSettings& settings_;
    const SampleSource& measure_;
    ComparisonOutcome outcome_;
    double level_ = 0.05;  ///< the Bonferroni level each look judges an arm at
    std::size_t first_look_ = 1;
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
            outcome.contenders.push_back(
                judge_arm(outcome, arm, settings,
                          (1 - settings.confidence) /
                              static_cast<double>(std::max<std::size_t>(settings.family_size, 1))));
        }
    }
    return outcome;
}

ComparisonOutcome run_comparison(std::size_t arms, const ComparisonSettings& settings,
                                 const SampleSource& measure) {
    return Comparison(arms, settings, measure).run();
}

FamilyJudgement judge_family(std::span<ComparisonOutcome* const> outcomes,
                             const ComparisonSettings& settings) {
    FamilyJudgement family;
    family.family_level = 1 - settings.confidence;
    std::vector<std::pair<ComparisonOutcome*, ContenderComparison*>> arms;
    std::vector<double> p_values;
    for (ComparisonOutcome* outcome : outcomes) {
        family.looks = std::max(family.looks, outcome->looks);
        for (ContenderComparison& contender : outcome->contenders) {
            arms.emplace_back(outcome, &contender);
            p_values.push_back(contender.p_value);
        }
    }
    family.size = arms.size();
    family.look_level = look_level(settings, family.looks);
    const std::vector<double> levels = holm_levels(p_values, family.look_level);
    for (std::size_t i = 0; i < arms.size(); ++i) {
        auto& [outcome, contender] = arms[i];
        *contender = judge_arm(*outcome, contender->arm, settings, levels[i]);
    }
    return family;
}

}  // namespace spvtune::tune
