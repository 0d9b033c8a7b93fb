#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spvtune::problem {

/// The candidate closest to a misspelt name, for "did you mean '...'?" hints; nothing when no
/// candidate is close. Close means an edit distance (insertions, deletions, substitutions and
/// swaps of adjacent characters, ignoring case) of at most 2 and smaller than the length of
/// `wrong`, so a one-letter name is never "corrected" into an unrelated one-letter name. Among
/// equally close candidates, the one that also matches in case wins, then the first in
/// `candidates`.
std::optional<std::string> did_you_mean(std::string_view wrong,
                                        const std::vector<std::string>& candidates);

}  // namespace spvtune::problem
