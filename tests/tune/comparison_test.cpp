// Comparing contenders with a baseline: bootstrap intervals of the ratio (paired by round, or of
// the medians for samples measured apart), verdicts
// against a threshold, interleaved rounds, and sampling that stops once every verdict settles.
#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/tune/comparison.hpp>

#include "tune/fakes.hpp"

namespace comparison_test {

using namespace spvtune::tune;

namespace {

std::vector<double> noisy(double ns, std::size_t count, double relative, std::size_t phase = 0) {
    std::vector<double> samples;
    for (std::size_t i = 0; i < count; ++i) {
        samples.push_back(ns * (1 + relative * fakes::noise(i + phase)));
    }
    return samples;
}

/// Arms with fixed mean times and relative noise; records the order of calls.
struct Arms {
    explicit Arms(std::vector<double> means, double noise = 0.01)
        : ns(std::move(means)), relative(noise), fail_at(ns.size(), -1) {}

    std::vector<double> ns;
    double relative;
    std::vector<std::size_t> calls;
    std::vector<int> fail_at;

    SampleSource source() {
        return [this](std::size_t arm) -> Result<Sample> {
            const auto count = static_cast<int>(std::count(calls.begin(), calls.end(), arm));
            calls.push_back(arm);
            if (count == fail_at[arm]) {
                return fail("the device said no");
            }
            return Sample{ns[arm] * (1 + relative * fakes::noise(calls.size())),
                          TimingMethod::device_timestamps};
        };
    }
};

}  // namespace

TEST_CASE("a verdict needs the whole interval beyond, or within, the threshold") {
    CHECK(judge({1.2, 1.15, 1.25}, 0.05) == Verdict::slower);
    CHECK(judge({0.8, 0.75, 0.85}, 0.05) == Verdict::faster);
    CHECK(judge({1.0, 0.98, 1.03}, 0.05) == Verdict::equivalent);
    CHECK(judge({1.05, 1.01, 1.09}, 0.05) == Verdict::inconclusive);
    CHECK(judge({0.97, 0.93, 1.01}, 0.05) == Verdict::inconclusive);
    // A point estimate beyond the threshold is not enough while the interval reaches inside.
    CHECK(judge({1.07, 1.01, 1.13}, 0.05) == Verdict::inconclusive);
    CHECK(judge({0.93, 0.87, 0.99}, 0.05) == Verdict::inconclusive);
    CHECK(verdict_name(Verdict::inconclusive) == "inconclusive");
}

TEST_CASE("the ratio interval is centred on the ratio of medians and is reproducible") {
    const std::vector<double> baseline = noisy(1000, 30, 0.02);
    const std::vector<double> slower = noisy(1500, 30, 0.02, 3);
    ComparisonSettings settings;
    const RatioInterval interval = ratio_interval(baseline, slower, settings);
    CHECK(interval.ratio == doctest::Approx(1.5).epsilon(0.02));
    CHECK(interval.low < interval.ratio);
    CHECK(interval.high > interval.ratio);
    CHECK(interval.low > 1.45);
    CHECK(interval.high < 1.55);
    const RatioInterval again = ratio_interval(baseline, slower, settings);
    CHECK(again.low == interval.low);
    CHECK(again.high == interval.high);
    settings.seed += 1;
    const RatioInterval reseeded = ratio_interval(baseline, slower, settings);
    CHECK((reseeded.low != interval.low || reseeded.high != interval.high));
}

TEST_CASE("an identical sample set is within any threshold") {
    const std::vector<double> baseline = noisy(1000, 20, 0.02);
    const RatioInterval interval = ratio_interval(baseline, baseline, ComparisonSettings{});
    CHECK(interval.ratio == 1.0);
    CHECK(interval.low <= 1.0);
    CHECK(interval.high >= 1.0);
    CHECK(judge(interval, 0.05) == Verdict::equivalent);
}

TEST_CASE("a load that changes between rounds cancels in the paired ratio, not in the unpaired") {
    // Every round runs under its own load, 1x to 1.6x, that slows both arms of the round alike;
    // within a round the contender is 10% slower, give or take 1%.
    std::vector<double> baseline;
    std::vector<double> contender;
    for (std::size_t round = 0; round < 40; ++round) {
        const double load = 1 + 0.6 * static_cast<double>((round * 7) % 11) / 10;
        baseline.push_back(1000 * load * (1 + 0.01 * fakes::noise(round)));
        contender.push_back(1100 * load * (1 + 0.01 * fakes::noise(round + 100)));
    }
    const ComparisonSettings settings;
    const ContenderComparison paired = judge_paired(baseline, contender, 0.05, 0.05);
    CHECK(paired.interval.ratio == doctest::Approx(1.1).epsilon(0.01));
    CHECK(paired.interval.low > 1.08);
    CHECK(paired.interval.high < 1.12);
    CHECK(paired.verdict == Verdict::slower);
    // Apart, the load's spread swamps the difference: the same samples settle nothing.
    const RatioInterval apart = ratio_interval(baseline, contender, settings);
    CHECK(judge(apart, 0.05) == Verdict::inconclusive);
    CHECK(apart.high - apart.low > 4 * (paired.interval.high - paired.interval.low));
}

TEST_CASE("measured arms are judged round by round, saved ones as samples apart") {
    // The contender is 10% slower within every round; the rounds' load alternates 1x and 1.5x.
    std::size_t calls = 0;
    const SampleSource measure = [&](std::size_t arm) -> Result<Sample> {
        const std::size_t round = calls++ / 2;  // two arms: two calls a round
        const double load = round % 2 == 0 ? 1.0 : 1.5;
        return Sample{(arm == 0 ? 1000 : 1100) * load, TimingMethod::device_timestamps};
    };
    ComparisonSettings settings;
    settings.warmup_runs = 0;
    const ComparisonOutcome outcome = run_comparison(2, settings, measure);
    REQUIRE(outcome.contenders.size() == 1);
    CHECK(outcome.contenders[0].interval.ratio == doctest::Approx(1.1));
    CHECK(outcome.contenders[0].verdict == Verdict::slower);
    const ComparisonOutcome saved = compare_samples(outcome.samples, settings);
    REQUIRE(saved.contenders.size() == 1);
    CHECK(saved.contenders[0].interval.high - saved.contenders[0].interval.low >
          outcome.contenders[0].interval.high - outcome.contenders[0].interval.low);
}

TEST_CASE("arms are measured in interleaved rounds that alternate direction") {
    Arms arms({1000, 1000, 1000});
    ComparisonSettings settings;
    settings.warmup_runs = 1;
    settings.min_samples = 2;
    settings.max_samples = 2;
    run_comparison(3, settings, arms.source());
    CHECK(arms.calls == std::vector<std::size_t>{0, 1, 2, 0, 1, 2, 2, 1, 0});
}

TEST_CASE("a clearly slower contender is called slower and sampling stops early") {
    Arms arms({1000, 1300, 1000});
    ComparisonSettings settings;
    const ComparisonOutcome outcome = run_comparison(3, settings, arms.source());
    REQUIRE(outcome.contenders.size() == 2);
    CHECK(outcome.contenders[0].arm == 1);
    CHECK(outcome.contenders[0].verdict == Verdict::slower);
    CHECK(outcome.contenders[1].verdict == Verdict::equivalent);
    CHECK(outcome.rounds == settings.min_samples);
    CHECK(outcome.baseline_cv > 0);
    CHECK(outcome.baseline_cv < 0.02);
}

TEST_CASE("a contender on the threshold's edge stays inconclusive and says what would settle it") {
    Arms arms({1000, 1050}, 0.05);
    ComparisonSettings settings;
    settings.max_samples = 20;
    const ComparisonOutcome outcome = run_comparison(2, settings, arms.source());
    CHECK(outcome.rounds == 20);
    REQUIRE(outcome.contenders.size() == 1);
    CHECK(outcome.contenders[0].verdict == Verdict::inconclusive);
}

TEST_CASE("samples to settle grow with the square of the interval's width over its gap") {
    // Half-width 0.04 around 1.02, the nearest edge (1.05) 0.03 away: (0.04 / 0.03)^2 * 10.
    const auto needed = samples_to_settle({1.02, 0.98, 1.06}, 10, 0.05);
    REQUIRE(needed.has_value());
    CHECK(*needed == 18);
    CHECK_FALSE(samples_to_settle({1.05, 1.0, 1.1}, 10, 0.05).has_value());
    // 0.001 from the edge, 26,010 samples by the formula: no advice a user can act on.
    CHECK_FALSE(samples_to_settle({1.049, 1.0, 1.1}, 10, 0.05).has_value());
}

TEST_CASE("a failing contender has no verdict, a failing baseline ends the comparison") {
    Arms arms({1000, 1000, 1200});
    arms.fail_at = {-1, 4, -1};
    const ComparisonOutcome outcome = run_comparison(3, ComparisonSettings{}, arms.source());
    REQUIRE(outcome.errors[1].has_value());
    CHECK(outcome.errors[1]->find("the device said no") != std::string::npos);
    REQUIRE(outcome.contenders.size() == 1);
    CHECK(outcome.contenders[0].arm == 2);

    Arms broken({1000, 1000});
    broken.fail_at = {5, -1};
    const ComparisonOutcome ended = run_comparison(2, ComparisonSettings{}, broken.source());
    CHECK(ended.errors[0].has_value());
    CHECK(ended.contenders.empty());
    CHECK(ended.rounds < 5);
}

TEST_CASE("noise is too high for a threshold when the expected interval is wider than half of it") {
    CHECK(too_noisy_for(0.10, 0.02, 60));
    CHECK_FALSE(too_noisy_for(0.01, 0.05, 60));
}

TEST_CASE("saved samples are judged as measured ones, and a baseline without samples gives none") {
    const ComparisonOutcome outcome = compare_samples(
        {noisy(1000, 30, 0.01), noisy(1300, 30, 0.01, 2), {}, noisy(1000, 30, 0.01, 5)},
        ComparisonSettings{});
    REQUIRE(outcome.contenders.size() == 2);
    CHECK(outcome.contenders[0].arm == 1);
    CHECK(outcome.contenders[0].verdict == Verdict::slower);
    CHECK(outcome.contenders[1].arm == 3);
    CHECK(outcome.contenders[1].verdict == Verdict::equivalent);
    CHECK(compare_samples({{}, noisy(1000, 30, 0.01)}, ComparisonSettings{}).contenders.empty());
}

TEST_CASE("one outlier inflates the coefficient of variation but not its robust counterpart") {
    std::vector<double> samples = noisy(1000, 30, 0.01);
    const double steady = robust_coefficient_of_variation(samples);
    samples.push_back(50'000);
    CHECK(coefficient_of_variation(samples) > 1.0);
    CHECK(robust_coefficient_of_variation(samples) < 2 * steady);
    CHECK(robust_coefficient_of_variation(samples) < 0.02);
}

TEST_CASE("the intervals' coverage follows the settings, the stricter one containing the other") {
    const std::vector<double> baseline = noisy(1000, 30, 0.05);
    const std::vector<double> contender = noisy(1100, 30, 0.05, 7);
    ComparisonSettings settings;
    const RatioInterval paired_95 = judge_paired(baseline, contender, 0.05, 0.05).interval;
    const RatioInterval unpaired_95 = ratio_interval(baseline, contender, settings);
    settings.confidence = 0.99;
    const RatioInterval paired_99 = judge_paired(baseline, contender, 0.05, 0.01).interval;
    const RatioInterval unpaired_99 = ratio_interval(baseline, contender, settings);
    CHECK(paired_99.ratio == paired_95.ratio);
    // Order statistics two ranks further out on each side; equal ratios may share a value.
    CHECK(paired_99.low <= paired_95.low);
    CHECK(paired_99.high >= paired_95.high);
    CHECK(paired_99.high - paired_99.low > paired_95.high - paired_95.low);
    CHECK(unpaired_99.low < unpaired_95.low);
    CHECK(unpaired_99.high > unpaired_95.high);
}

TEST_CASE("sampling stops only at its looks: after min_samples rounds, then as the rounds double") {
    ComparisonSettings settings;
    settings.min_samples = 8;
    settings.max_samples = 40;
    settings.resamples = 500;
    // Noise of 1% to 6%: some comparisons settle at the first look, some later, some never.
    for (int percent = 1; percent <= 6; ++percent) {
        Arms arms({1000, 1000, 1040}, percent / 100.0);
        const ComparisonOutcome outcome = run_comparison(3, settings, arms.source());
        CHECK_MESSAGE((outcome.rounds == 8 || outcome.rounds == 16 || outcome.rounds == 32 ||
                       outcome.rounds == 40),
                      outcome.rounds << " rounds at " << percent << "% noise");
    }
}

}  // namespace comparison_test
