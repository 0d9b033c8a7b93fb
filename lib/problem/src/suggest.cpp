#include <algorithm>
#include <cctype>
#include <string>
#include <utility>
#include <vector>

#include <spvtune/problem/suggest.hpp>

namespace spvtune::problem {
namespace {

char lower(char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

// Optimal string alignment distance: Levenshtein plus swaps of adjacent characters, the most
// common typo ("ceil_dvi"). `fold` compares ignoring case.
std::size_t distance(std::string_view a, std::string_view b, bool fold) {
    auto same = [fold](char x, char y) { return fold ? lower(x) == lower(y) : x == y; };
    std::size_t columns = b.size() + 1;
    std::vector<std::size_t> table((a.size() + 1) * columns);
    auto at = [&](std::size_t i, std::size_t j) -> std::size_t& { return table[i * columns + j]; };
    for (std::size_t i = 0; i <= a.size(); ++i) {
        at(i, 0) = i;
    }
    for (std::size_t j = 0; j <= b.size(); ++j) {
        at(0, j) = j;
    }
    for (std::size_t i = 1; i <= a.size(); ++i) {
        for (std::size_t j = 1; j <= b.size(); ++j) {
            std::size_t cost = same(a[i - 1], b[j - 1]) ? 0 : 1;
            at(i, j) = std::min({at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost});
            if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) && same(a[i - 2], b[j - 1])) {
                at(i, j) = std::min(at(i, j), at(i - 2, j - 2) + 1);
            }
        }
    }
    return at(a.size(), b.size());
}

}  // namespace

std::optional<std::string> did_you_mean(std::string_view wrong,
                                        const std::vector<std::string>& candidates) {
    constexpr std::size_t max_distance = 2;
    const std::string* best = nullptr;
    std::pair<std::size_t, std::size_t> best_score;  // (ignoring case, exact)
    for (const std::string& candidate : candidates) {
        // Lengths differing by more than the limit cannot be close; skip the table.
        std::size_t gap = candidate.size() > wrong.size() ? candidate.size() - wrong.size()
                                                          : wrong.size() - candidate.size();
        if (gap > max_distance) {
            continue;
        }
        std::size_t folded = distance(wrong, candidate, true);
        if (folded > max_distance || folded >= wrong.size()) {
            continue;
        }
        std::pair<std::size_t, std::size_t> score{folded, distance(wrong, candidate, false)};
        if (best == nullptr || score < best_score) {
            best = &candidate;
            best_score = score;
        }
    }
    if (best == nullptr) {
        return std::nullopt;
    }
    return *best;
}

}  // namespace spvtune::problem
