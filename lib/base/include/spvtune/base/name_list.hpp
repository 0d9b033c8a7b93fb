#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace spvtune::base {

/// The names joined with `separator`, for messages that list what exists (or, joined with
/// "; ", findings that hold commas of their own).
std::string join(const std::vector<std::string>& names, std::string_view separator = ", ");

/// The first `shown` names joined with ", ", then "and N more": a message stays one readable
/// line when a grid names 65536 candidates.
std::string join_some(const std::vector<std::string>& names, std::size_t shown = 8);

}  // namespace spvtune::base
