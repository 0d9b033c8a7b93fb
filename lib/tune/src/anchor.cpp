#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <utility>

#include <spvtune/base/enum_names.hpp>
#include <spvtune/tune/anchor.hpp>

namespace spvtune::tune {
namespace {

constexpr base::EnumNames<AutotuneLevel, 4> level_names{{
    {AutotuneLevel::minimal, "minimal"},
    {AutotuneLevel::balanced, "balanced"},
    {AutotuneLevel::extensive, "extensive"},
    {AutotuneLevel::full, "full"},
}};

constexpr std::uint64_t saturated = std::numeric_limits<std::uint64_t>::max();

std::uint64_t saturating_multiply(std::uint64_t a, std::uint64_t b) {
    return (b != 0 && a > saturated / b) ? saturated : a * b;
}

/// The smallest power of `step` that is >= target.
std::uint64_t power_at_least(std::uint64_t target, std::uint64_t step) {
    std::uint64_t power = 1;
    while (power < target && power != saturated) {
        power = saturating_multiply(power, step);
    }
    return power;
}

/// The smallest point >= target among powers of `base` and their geometric midpoints.
std::uint64_t half_power_at_least(std::uint64_t target, std::uint64_t base) {
    const double root = std::sqrt(static_cast<double>(base));
    std::uint64_t power = 1;
    while (power < target && power != saturated) {
        const double midpoint = std::round(static_cast<double>(power) * root);
        // Compared in double: past 2^64 the midpoint only has to be known to be large enough.
        if (midpoint >= static_cast<double>(target)) {
            return midpoint >= static_cast<double>(saturated)
                       ? saturated
                       : static_cast<std::uint64_t>(midpoint);
        }
        power = saturating_multiply(power, base);
    }
    return power;
}

}  // namespace

std::string_view to_string(AutotuneLevel level) {
    return base::name_of(level_names, level);
}

Result<AutotuneLevel> parse_autotune_level(std::string_view text) {
    if (const auto level = base::enum_from(level_names, text)) {
        return *level;
    }
    std::string valid;
    for (const auto& entry : level_names) {
        valid += valid.empty() ? "" : ", ";
        valid += entry.second;
    }
    return fail("unknown autotune level '" + std::string(text) + "' (valid: " + valid + ")");
}

Result<AutotuneLevel> autotune_level_from_env() {
    const char* value = std::getenv(std::string(autotune_level_variable).c_str());
    if (value == nullptr || *value == '\0') {
        return AutotuneLevel::balanced;
    }
    Result<AutotuneLevel> level = parse_autotune_level(value);
    if (!level) {
        // Appended in place: g++ 12 warns falsely (-Warray-bounds) on an inlined operator+ chain.
        std::string message(autotune_level_variable);
        message.append(": ").append(level.error());
        return fail(message);
    }
    return level;
}

std::uint64_t anchor(std::uint64_t x, std::optional<std::uint64_t> max,
                     std::optional<std::uint64_t> min, std::uint64_t base, AutotuneLevel level) {
    if (level == AutotuneLevel::full) {
        return x;
    }
    base = std::max<std::uint64_t>(base, 2);
    const std::uint64_t target = std::max<std::uint64_t>(x, 1);
    std::uint64_t bucket = 0;
    switch (level) {
        case AutotuneLevel::minimal:
            bucket = power_at_least(target, saturating_multiply(base, base));
            break;
        case AutotuneLevel::extensive:
            bucket = half_power_at_least(target, base);
            break;
        case AutotuneLevel::balanced:
        case AutotuneLevel::full:
            bucket = power_at_least(target, base);
            break;
    }
    if (max && bucket > *max) {
        bucket = *max;
    }
    if (min && bucket < *min) {
        bucket = *min;
    }
    return bucket;
}

}  // namespace spvtune::tune
