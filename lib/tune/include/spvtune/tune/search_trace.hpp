#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace spvtune::tune {

/// How a key's candidates are chosen for measuring.
enum class SearchStrategy {
    exhaustive,  ///< every runnable candidate is checked and raced
    random,      ///< a seeded sample of them, then the race among the sample
    halving,     ///< successive halving: brief measurements of many, more for the survivors
    local,       ///< iterated neighbourhood search over the grid's parameters
    genetic,     ///< a population bred over the grid's parameters
    bayes,       ///< Bayesian optimisation: a surrogate of the times picks each next point
};

// Problem-file, command-line, cache-file and report spellings.
NLOHMANN_JSON_SERIALIZE_ENUM(SearchStrategy, {
                                                 {SearchStrategy::exhaustive, "exhaustive"},
                                                 {SearchStrategy::random, "random"},
                                                 {SearchStrategy::halving, "halving"},
                                                 {SearchStrategy::local, "local"},
                                                 {SearchStrategy::genetic, "genetic"},
                                                 {SearchStrategy::bayes, "bayes"},
                                             })

/// One point the search measured, in the order it was first measured.
struct SearchStep {
    std::size_t index = 0;  ///< in the tunable set
    std::string name;
    /// Median of the samples the search took of it (the final race's for a point raced without
    /// search samples); nullopt when it failed.
    std::optional<double> median_ns;
    std::size_t samples = 0;
    /// Why it was dropped (output check, run or sample error); empty when it did not fail.
    std::string error;
    /// It took part in the final race.
    bool finalist = false;
    /// Seconds from the search's start to the point's first measurement (the tuning time so
    /// far, as Kernel Tuner's cache records it); nullopt in the trace of a race without search.
    std::optional<double> elapsed_s;
    /// Its output was never checked: its only reading was far behind the best found, so it
    /// was no finalist, and a check would have cost a run (SearchHooks::check). It is not ranked.
    bool unchecked = false;
};

/// What a search did for one key: only the run that tuned the key has it (cache files keep the
/// summary in the entry's `settings`, not the trace).
struct SearchTrace {
    SearchStrategy strategy = SearchStrategy::exhaustive;
    std::uint64_t seed = 0;
    /// Runnable candidates of the key; steps.size() of them were measured.
    std::size_t runnable = 0;
    std::vector<SearchStep> steps;
};

}  // namespace spvtune::tune
