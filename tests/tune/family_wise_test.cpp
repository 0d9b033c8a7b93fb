// The decisions of a sequential comparison over a family of arms, on scripted samples: the sign
// test and its median interval, Holm's step-down, the looks' share of the error, and a family
// judged together so that one lucky arm among many is not called slower.
#include <cmath>
#include <cstddef>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/tune/comparison.hpp>
#include <spvtune/tune/statistics.hpp>

namespace family_wise_test {

using namespace spvtune::tune;

namespace {

/// A baseline of 1000 ns every round, and a contender at 1000 * ratios[i] in round i.
std::vector<std::vector<double>> rounds_of(const std::vector<std::vector<double>>& ratios) {
    std::vector<std::vector<double>> samples(1);
    for (std::size_t round = 0; round < ratios.front().size(); ++round) {
        samples[0].push_back(1000);
    }
    for (const auto& arm : ratios) {
        std::vector<double> contender;
        for (const double ratio : arm) {
            contender.push_back(1000 * ratio);
        }
        samples.push_back(contender);
    }
    return samples;
}

/// `above` rounds at `high`, then the rest of `rounds` at `low`.
std::vector<double> mixed(std::size_t rounds, std::size_t above, double high, double low) {
    std::vector<double> ratios(rounds, low);
    for (std::size_t i = 0; i < above; ++i) {
        ratios[i] = high;
    }
    return ratios;
}

}  // namespace

TEST_CASE("the sign test's p-value and the median's order-statistic interval agree") {
    // 2 P(Bin(10, 1/2) <= 1) = 2 * 11 / 1024.
    CHECK(sign_test_p_value(10, 1) == doctest::Approx(22.0 / 1024));
    CHECK(sign_test_p_value(10, 5) == 1.0);
    // A bound with k values at or below it lies below the interval [x(lower), x(upper)] exactly
    // when k < lower: the sign test rejects it at 5% exactly then, for any count of values whose
    // interval reaches 95%, and never for fewer (5 values have no 95% interval).
    for (std::size_t n = 1; n <= 120; ++n) {
        CAPTURE(n);
        const MedianRanks ranks = median_confidence_ranks(n, 0.95);
        for (std::size_t k = 0; 2 * k + 1 < n; ++k) {
            CAPTURE(k);
            CHECK((sign_test_p_value(n, k) <= 0.05) == (ranks.coverage >= 0.95 && k < ranks.lower));
        }
    }
    // Many rounds: no underflow, and about n/2 - 1.96 sqrt(n)/2 at 95%.
    CHECK(sign_test_p_value(10000, 4000) < 1e-80);
    CHECK(sign_test_p_value(10000, 4900) > 0.04);
    CHECK(sign_test_p_value(10000, 4900) < 0.06);
}

TEST_CASE("Holm's step-down rejects in order of p-value until the first arm it cannot") {
    // Sorted: 0.005 <= 0.05/4, 0.01 <= 0.05/3, then 0.03 > 0.05/2 ends it.
    const std::vector<double> p{0.01, 0.04, 0.03, 0.005};
    const std::vector<double> levels = holm_levels(p, 0.05);
    REQUIRE(levels.size() == 4);
    CHECK(levels[3] == doctest::Approx(0.05 / 4));
    CHECK(levels[0] == doctest::Approx(0.05 / 3));
    CHECK(levels[2] == doctest::Approx(0.05 / 2));
    CHECK(levels[1] == doctest::Approx(0.05 / 2));
    // Every arm rejected: the last step spends the whole alpha.
    const std::vector<double> all = holm_levels(std::vector<double>{0.002, 0.001}, 0.05);
    CHECK(all[1] == doctest::Approx(0.025));
    CHECK(all[0] == doctest::Approx(0.05));
    CHECK(holm_levels(std::vector<double>{}, 0.05).empty());
}

TEST_CASE("a paired verdict is slower exactly when its interval lies above the band") {
    // 20 rounds: 15 at 1.06 and 5 at 1.00; at a 5% threshold the sign test's p is 2 P(Bin <= 5).
    const auto samples = rounds_of({mixed(20, 15, 1.06, 1.00)});
    const double p = sign_test_p_value(20, 5);
    for (const double level : {0.2, 0.05, p, 0.01, 0.001}) {
        CAPTURE(level);
        const ContenderComparison judged = judge_paired(samples[0], samples[1], 0.05, level);
        CHECK(judged.p_value == doctest::Approx(p));
        CHECK(judged.coverage == doctest::Approx(1 - level));
        CHECK((judged.verdict == Verdict::slower) == (level >= p));
        CHECK((judged.verdict == Verdict::slower) == (judged.interval.low > 1.05));
        CHECK(judge(judged.interval, 0.05) == judged.verdict);
    }
    // Too few rounds for the level: the whole range, and no verdict.
    const auto few = rounds_of({{1.3, 1.3, 1.3}});
    const ContenderComparison short_run = judge_paired(few[0], few[1], 0.05, 0.05);
    CHECK(short_run.verdict == Verdict::inconclusive);
    CHECK(short_run.interval.low == doctest::Approx(1.3));
}

TEST_CASE("a few rounds all slower state their real coverage and do not trip a gate") {
    // CI saw an identical copy's five rounds all 17-67% slower: [min, max] of five ratios covers
    // their median 93.75% of the time, not the 97.5% the look's level asks, so `--fail-if-slower`
    // must not read it as evidence.
    const auto five = rounds_of({{1.2, 1.4, 1.3, 1.6, 1.5}});
    const ContenderComparison few = judge_paired(five[0], five[1], 0.0001, 0.025);
    CHECK(few.verdict == Verdict::inconclusive);
    CHECK(few.level == doctest::Approx(0.025));
    CHECK(few.coverage == doctest::Approx(0.9375));
    CHECK(few.interval.low == doctest::Approx(1.2));
    CHECK_FALSE(confidently_slower_than(few, 1.05));

    // Enough rounds for the level: the interval reaches it, and lies above the gate or not.
    const auto many = rounds_of({std::vector<double>(12, 1.3)});
    const ContenderComparison settled = judge_paired(many[0], many[1], 0.0001, 0.025);
    CHECK(settled.verdict == Verdict::slower);
    CHECK(settled.coverage == doctest::Approx(0.975));
    CHECK(confidently_slower_than(settled, 1.05));
    CHECK_FALSE(confidently_slower_than(settled, 1.35));

    // Saved results judged apart carry their level too.
    ComparisonSettings settings;
    settings.family_size = 2;
    const ComparisonOutcome apart = compare_samples(many, settings);
    REQUIRE(apart.contenders.size() == 1);
    CHECK(apart.contenders[0].level == doctest::Approx(0.025));
    CHECK(apart.contenders[0].coverage == doctest::Approx(0.975));
}

TEST_CASE("judged as a family, one lucky arm of twelve is not called slower, while a slow one is") {
    // Eleven copies of the baseline within 1%, one of them lucky: 15 of 20 rounds at 1.06 (p about
    // 0.04, a false `slower` at 95% alone), and one contender 30% slower in every round.
    std::vector<std::vector<double>> ratios;
    for (int copy = 0; copy < 10; ++copy) {
        std::vector<double> arm;
        for (int round = 0; round < 20; ++round) {
            arm.push_back(1 + 0.01 * std::sin(copy * 7 + round));
        }
        ratios.push_back(arm);
    }
    ratios.push_back(mixed(20, 15, 1.06, 1.00));
    ratios.push_back(std::vector<double>(20, 1.3));
    ComparisonOutcome outcome = compare_samples(rounds_of(ratios), ComparisonSettings{});
    outcome.paired = true;
    REQUIRE(outcome.contenders.size() == 12);
    const std::size_t lucky = 10;
    const std::size_t slow = 11;
    CHECK(judge_paired(outcome.samples[0], outcome.samples[lucky + 1], 0.05, 0.05).verdict ==
          Verdict::slower);

    std::vector<ComparisonOutcome*> family{&outcome};
    const FamilyJudgement judged = judge_family(family, ComparisonSettings{});
    CHECK(judged.size == 12);
    CHECK(judged.look_level == doctest::Approx(0.05));
    CHECK(outcome.contenders[slow].verdict == Verdict::slower);
    CHECK(outcome.contenders[slow].coverage == doctest::Approx(1 - 0.05 / 12));
    CHECK(outcome.contenders[lucky].verdict == Verdict::inconclusive);
    CHECK(outcome.contenders[lucky].coverage == doctest::Approx(1 - 0.05 / 11));
    for (std::size_t copy = 0; copy < 10; ++copy) {
        CAPTURE(copy);
        CHECK(outcome.contenders[copy].verdict == Verdict::equivalent);
    }
}

TEST_CASE("a larger family needs more rounds before a verdict may stop sampling") {
    // A contender 3.5-8% slower in seven rounds of eight and 10% faster in the eighth, against a
    // steady baseline, at a 1% threshold: alone it settles at the look after 16 rounds; as one
    // arm of twelve each look spends a twelfth, and it settles only at the look after 24.
    const std::vector<double> contender{900, 1040, 1045, 1050, 1060, 1070, 1080, 1035};
    const auto measure = [&](std::vector<std::size_t>& calls) -> SampleSource {
        return [&](std::size_t arm) -> Result<Sample> {
            const std::size_t index = calls[arm]++;
            const double ns = arm == 0 ? 1000 : contender[index % contender.size()];
            return Sample{ns, TimingMethod::device_timestamps};
        };
    };
    ComparisonSettings settings;
    settings.threshold = 0.01;
    settings.warmup_runs = 0;
    settings.min_samples = 8;
    settings.max_samples = 64;
    std::vector<std::size_t> alone_calls(2);
    const ComparisonOutcome alone = run_comparison(2, settings, measure(alone_calls));
    settings.family_size = 12;
    std::vector<std::size_t> family_calls(2);
    const ComparisonOutcome in_family = run_comparison(2, settings, measure(family_calls));
    CHECK(alone.looks == 5);
    CHECK(alone.rounds == 16);
    CHECK(in_family.rounds == 24);
    REQUIRE(in_family.contenders.size() == 1);
    CHECK(in_family.contenders[0].verdict == Verdict::slower);
    CHECK(in_family.contenders[0].coverage == doctest::Approx(1 - 0.05 / 5 / 12));
}

TEST_CASE("an identical copy is sampled past a file's 60 rounds until it is settled equivalent") {
    // Noise of up to 20% per sample: 60 rounds leave the interval wider than the 5% band; sampling
    // goes on, look after look, until the copy is settled.
    std::size_t calls = 0;
    const SampleSource measure = [&](std::size_t) -> Result<Sample> {
        ++calls;
        const double wobble = 0.2 * std::sin(static_cast<double>(calls) * 1.7);
        return Sample{1000 * (1 + wobble), TimingMethod::device_timestamps};
    };
    ComparisonSettings settings;
    settings.warmup_runs = 0;
    settings.max_samples = 100000;
    const ComparisonOutcome outcome = run_comparison(2, settings, measure);
    CHECK(outcome.rounds > 60);
    CHECK(outcome.rounds < 100000);
    REQUIRE(outcome.contenders.size() == 1);
    CHECK(outcome.contenders[0].verdict == Verdict::equivalent);
}

TEST_CASE("each look spends an equal share of the family's error") {
    ComparisonSettings settings;
    CHECK(look_level(settings, 5) == doctest::Approx(0.01));
    settings.confidence = 0.99;
    CHECK(look_level(settings, 1) == doctest::Approx(0.01));
    CHECK(look_level(settings, 0) == doctest::Approx(0.01));
}

}  // namespace family_wise_test
