#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include <spvtune/tune/result.hpp>

namespace spvtune::tune {

/// How finely problem sizes are bucketed into tuning keys: coarser levels tune fewer keys.
enum class AutotuneLevel {
    minimal,    ///< buckets are powers of base² (fewest keys)
    balanced,   ///< buckets are powers of base (the default)
    extensive,  ///< powers of base plus their geometric midpoints
    full,       ///< no bucketing: every size is its own key
};

/// The environment variable that selects the level for a process.
inline constexpr std::string_view autotune_level_variable = "SPVTUNE_AUTOTUNE_LEVEL";

std::string_view to_string(AutotuneLevel level);

/// Parses a level name; the error lists the valid names.
Result<AutotuneLevel> parse_autotune_level(std::string_view text);

/// The level named by `SPVTUNE_AUTOTUNE_LEVEL`, `balanced` when it is unset or empty; a bad
/// value is an error naming the variable and the valid names. Read it once at startup and pass
/// the level to `anchor`: the environment is not re-read per key.
Result<AutotuneLevel> autotune_level_from_env();

/// Buckets a size so that nearby sizes share a tuning key: the smallest bucket boundary that is
/// >= x (1 for x == 0), then clamped to at most `max` and at least `min` (`min` wins when they
/// cross). Boundaries depend on `level` (see AutotuneLevel); `full` returns x unchanged, unclamped,
/// since it asks for exact sizes. A `base` below 2 is treated as 2. Saturates instead of
/// overflowing.
std::uint64_t anchor(std::uint64_t x, std::optional<std::uint64_t> max = std::nullopt,
                     std::optional<std::uint64_t> min = std::nullopt, std::uint64_t base = 2,
                     AutotuneLevel level = AutotuneLevel::balanced);

}  // namespace spvtune::tune
