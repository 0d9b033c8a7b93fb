#pragma once

#include <cmath>

#include <doctest/doctest.h>

#include <spvtune/cache/cache_document.hpp>

// Field-by-field comparisons, so a failure names the field that did not survive.
namespace spvtune::tune::testing {

inline void check_same_number(double a, double b) {
    if (std::isnan(a)) {
        CHECK(std::isnan(b));
    } else {
        CHECK(a == b);  // exact: the format must round-trip every bit
    }
}

inline void check_same_entry(const TuneEntry& a, const TuneEntry& b) {
    CHECK(a.winner_name == b.winner_name);
    CHECK(a.winner_index == b.winner_index);
    REQUIRE(a.ranking.size() == b.ranking.size());
    for (std::size_t i = 0; i < a.ranking.size(); ++i) {
        const RankedCandidate& x = a.ranking[i];
        const RankedCandidate& y = b.ranking[i];
        CHECK(x.name == y.name);
        CHECK(x.index == y.index);
        CHECK(x.statistics.samples == y.statistics.samples);
        check_same_number(x.statistics.min_ns, y.statistics.min_ns);
        check_same_number(x.statistics.median_ns, y.statistics.median_ns);
        check_same_number(x.statistics.mean_ns, y.statistics.mean_ns);
        check_same_number(x.statistics.stddev_ns, y.statistics.stddev_ns);
        check_same_number(x.statistics.ci_low_ns, y.statistics.ci_low_ns);
        check_same_number(x.statistics.ci_high_ns, y.statistics.ci_high_ns);
        CHECK(x.method == y.method);
        CHECK(x.tied_with_winner == y.tied_with_winner);
        CHECK(x.eliminated == y.eliminated);
    }
    REQUIRE(a.failures.size() == b.failures.size());
    for (std::size_t i = 0; i < a.failures.size(); ++i) {
        CHECK(a.failures[i].name == b.failures[i].name);
        CHECK(a.failures[i].index == b.failures[i].index);
        CHECK(a.failures[i].kind == b.failures[i].kind);
        CHECK(a.failures[i].reason == b.failures[i].reason);
    }
    CHECK(a.tuned_at == b.tuned_at);
    CHECK(a.settings == b.settings);
    CHECK(a.needs_retune == b.needs_retune);
}

inline void check_same_hardware(const HardwareIdentity& a, const HardwareIdentity& b) {
    CHECK(a.key == b.key);
    CHECK(a.vendor_id == b.vendor_id);
    CHECK(a.device_id == b.device_id);
    CHECK(a.device_name == b.device_name);
    CHECK(a.driver_version == b.driver_version);
    CHECK(a.record == b.record);
}

}  // namespace spvtune::tune::testing
