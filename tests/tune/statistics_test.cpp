#include <vector>

#include <doctest/doctest.h>

#include <spvtune/tune/statistics.hpp>

namespace statistics_test {

using namespace spvtune::tune;

TEST_CASE("median confidence ranks match the binomial tables") {
    // Reference values: exact binomial(n, 1/2) tails, the ranks found in standard tables.
    const MedianRanks ten = median_confidence_ranks(10);
    CHECK(ten.lower == 2);
    CHECK(ten.upper == 9);
    CHECK(ten.coverage == doctest::Approx(0.978515625));

    const MedianRanks twenty = median_confidence_ranks(20);
    CHECK(twenty.lower == 6);
    CHECK(twenty.upper == 15);
    CHECK(twenty.coverage == doctest::Approx(0.9586105347));

    const MedianRanks hundred = median_confidence_ranks(100);
    CHECK(hundred.lower == 40);
    CHECK(hundred.upper == 61);
    CHECK(hundred.coverage == doctest::Approx(0.9647998));

    const MedianRanks thousand = median_confidence_ranks(1000);
    CHECK(thousand.lower == 469);
    CHECK(thousand.upper == 532);
}

TEST_CASE("too few samples for 95% give the widest interval with its true coverage") {
    const MedianRanks five = median_confidence_ranks(5);
    CHECK(five.lower == 1);
    CHECK(five.upper == 5);
    CHECK(five.coverage == doctest::Approx(0.9375));
    const MedianRanks one = median_confidence_ranks(1);
    CHECK(one.lower == 1);
    CHECK(one.upper == 1);
    CHECK(median_confidence_ranks(0).upper == 0);
}

TEST_CASE("summarize computes count, min, median, mean, stddev and the median's interval") {
    const std::vector<double> five{5, 1, 4, 2, 3};
    const SampleStatistics s = summarize(five);
    CHECK(s.samples == 5);
    CHECK(s.min_ns == 1);
    CHECK(s.median_ns == 3);
    CHECK(s.mean_ns == doctest::Approx(3));
    CHECK(s.stddev_ns == doctest::Approx(1.5811388));  // sqrt(10 / 4)
    CHECK(s.ci_low_ns == 1);
    CHECK(s.ci_high_ns == 5);

    const std::vector<double> ten{10, 3, 7, 1, 9, 2, 8, 4, 6, 5};
    const SampleStatistics t = summarize(ten);
    CHECK(t.median_ns == doctest::Approx(5.5));  // even count: mean of the middle two
    CHECK(t.ci_low_ns == 2);
    CHECK(t.ci_high_ns == 9);
    CHECK(relative_interval_width(t) == doctest::Approx(7.0 / 5.5));
}

TEST_CASE("summarize of nothing or one sample") {
    CHECK(summarize({}).samples == 0);
    const std::vector<double> one{42};
    const SampleStatistics s = summarize(one);
    CHECK(s.median_ns == 42);
    CHECK(s.stddev_ns == 0);
    CHECK(s.ci_low_ns == 42);
    CHECK(s.ci_high_ns == 42);
}

TEST_CASE("intervals overlap when they share a point") {
    SampleStatistics a;
    a.ci_low_ns = 10;
    a.ci_high_ns = 20;
    SampleStatistics b;
    b.ci_low_ns = 20;
    b.ci_high_ns = 30;
    CHECK(intervals_overlap(a, b));
    CHECK(intervals_overlap(b, a));
    b.ci_low_ns = 20.5;
    CHECK_FALSE(intervals_overlap(a, b));
    CHECK_FALSE(intervals_overlap(b, a));
}

}  // namespace statistics_test
