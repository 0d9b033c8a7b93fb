#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>

#include <doctest/doctest.h>

#include <spvtune/tune/anchor.hpp>

#include "support/scoped_env.hpp"

namespace anchor_test {

using namespace spvtune::tune;

TEST_CASE("anchor rounds up to the next power of the base and clamps") {
    CHECK(anchor(5) == 8);
    CHECK(anchor(8) == 8);
    CHECK(anchor(9) == 16);
    CHECK(anchor(0) == 1);
    CHECK(anchor(1) == 1);
    CHECK(anchor(100, 64) == 64);
    CHECK(anchor(3, std::nullopt, 16) == 16);
    CHECK(anchor(123, std::nullopt, std::nullopt, 10) == 1000);
    CHECK(anchor(5, std::nullopt, std::nullopt, 1) == 8);  // a base below 2 means 2
    CHECK(anchor(5, 4, 16) == 16);                         // min wins when the bounds cross
}

TEST_CASE("anchor saturates instead of overflowing") {
    constexpr std::uint64_t top = std::numeric_limits<std::uint64_t>::max();
    CHECK(anchor(top) == top);
    CHECK(anchor((std::uint64_t{1} << 63U) + 1) == top);
    CHECK(anchor(top, std::nullopt, std::nullopt, 2, AutotuneLevel::extensive) == top);
}

TEST_CASE("the autotune level changes the bucket width") {
    // minimal: powers of base^2 = 1, 4, 16, 64 ...
    CHECK(anchor(5, std::nullopt, std::nullopt, 2, AutotuneLevel::minimal) == 16);
    CHECK(anchor(17, std::nullopt, std::nullopt, 2, AutotuneLevel::minimal) == 64);
    // balanced: powers of 2
    CHECK(anchor(17, std::nullopt, std::nullopt, 2, AutotuneLevel::balanced) == 32);
    // extensive: powers of 2 and their geometric midpoints (round(2^k * sqrt 2))
    CHECK(anchor(5, std::nullopt, std::nullopt, 2, AutotuneLevel::extensive) == 6);
    CHECK(anchor(7, std::nullopt, std::nullopt, 2, AutotuneLevel::extensive) == 8);
    CHECK(anchor(17, std::nullopt, std::nullopt, 2, AutotuneLevel::extensive) == 23);
    CHECK(anchor(1024, std::nullopt, std::nullopt, 2, AutotuneLevel::extensive) == 1024);
    // full: no bucketing, no clamping
    CHECK(anchor(17, 8, std::nullopt, 2, AutotuneLevel::full) == 17);
    // clamps apply at every bucketing level
    CHECK(anchor(5, 8, std::nullopt, 2, AutotuneLevel::minimal) == 8);
}

TEST_CASE("autotune levels parse by name and reject others with the valid names") {
    CHECK(parse_autotune_level("minimal").value() == AutotuneLevel::minimal);
    CHECK(parse_autotune_level("full").value() == AutotuneLevel::full);
    CHECK(to_string(AutotuneLevel::extensive) == "extensive");
    const Result<AutotuneLevel> bad = parse_autotune_level("max");
    REQUIRE_FALSE(bad);
    CHECK(bad.error() ==
          "unknown autotune level 'max' (valid: minimal, balanced, extensive, full)");
}

TEST_CASE("the autotune level comes from SPVTUNE_AUTOTUNE_LEVEL") {
    const spvtune::test::ScopedEnv level("SPVTUNE_AUTOTUNE_LEVEL", std::nullopt);
    CHECK(autotune_level_from_env().value() == AutotuneLevel::balanced);
    level.set("");
    CHECK(autotune_level_from_env().value() == AutotuneLevel::balanced);
    level.set("extensive");
    CHECK(autotune_level_from_env().value() == AutotuneLevel::extensive);
    level.set("minimal");
    CHECK(autotune_level_from_env().value() == AutotuneLevel::minimal);
    level.set("Fast");
    const Result<AutotuneLevel> bad = autotune_level_from_env();
    REQUIRE_FALSE(bad);
    CHECK(bad.error() ==
          "SPVTUNE_AUTOTUNE_LEVEL: unknown autotune level 'Fast' (valid: minimal, "
          "balanced, extensive, full)");
}

}  // namespace anchor_test
