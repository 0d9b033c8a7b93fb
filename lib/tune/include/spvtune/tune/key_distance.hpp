#pragma once

#include <optional>
#include <string_view>

namespace spvtune::tune {

/// How far apart two keys are, from their canonical JSON (canonical_key_json), for
/// MissPolicy::run_nearest: the sum, over their numeric members, of |log2(a / b)|, so that a size
/// twice or half as large is one step away whatever the size (n=2048 and n=8192 are both one
/// step from n=4096). Nothing when the keys are not comparable: not JSON, different members, a
/// member that is not a number and differs (another data type, a flag), or a number that
/// differs while it is not positive in both.
std::optional<double> key_distance(std::string_view a, std::string_view b);

}  // namespace spvtune::tune
