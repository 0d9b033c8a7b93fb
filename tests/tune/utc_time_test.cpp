#include <chrono>

#include <doctest/doctest.h>

#include <spvtune/tune/detail/utc_time.hpp>

#include "tune/iso8601.hpp"

namespace utc_time_test {

using namespace std::chrono;
using spvtune::tune::detail::iso8601_utc;
using spvtune::tune::detail::utc_now_iso8601;

TEST_CASE("time stamps are ISO 8601 in UTC: year-month-day, then hours:minutes:seconds") {
    // Month 11 and minute 7 differ, so swapped fields cannot print the same text.
    const sys_seconds time = sys_days{2026y / November / 29} + 19h + 7min + 5s;
    CHECK(iso8601_utc(time) == "2026-11-29T19:07:05Z");
    CHECK(iso8601_utc(sys_days{1999y / January / 2}) == "1999-01-02T00:00:00Z");
}

TEST_CASE("the current time stamp parses back to now") {
    const sys_seconds before = floor<seconds>(system_clock::now());
    const std::string stamp = utc_now_iso8601();
    const sys_seconds after = floor<seconds>(system_clock::now());
    const std::optional<sys_seconds> parsed = fakes::parse_iso8601(stamp);
    REQUIRE_MESSAGE(parsed, stamp);
    CHECK(*parsed >= before);
    CHECK(*parsed <= after);
}

}  // namespace utc_time_test
