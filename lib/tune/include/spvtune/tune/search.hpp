#pragma once

#include <chrono>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include <nlohmann/json.hpp>

#include <spvtune/tune/benchmark.hpp>
#include <spvtune/tune/sampling.hpp>
#include <spvtune/tune/search_trace.hpp>
#include <spvtune/tune/tune_entry.hpp>

namespace spvtune::tune {

/// Where a candidate sits in a grid of parameter values. Its neighbours are the points of the
/// same family one level up or down in exactly one parameter.
struct GridPosition {
    std::size_t family = 0;
    /// Per grid parameter, the level of the candidate's value: its rank among that parameter's
    /// values in ascending order (numbers by value), so neighbouring levels are neighbouring
    /// values.
    std::vector<std::size_t> levels;

    friend auto operator<=>(const GridPosition&, const GridPosition&) = default;
};

/// How a key's candidates are searched. Only a search's strategy decides which candidates are
/// ever run: a point it never proposes is not checked, measured or prepared.
/// Every member has an initializer, so designated initializers may leave any out.
struct SearchSettings {
    /// Nullopt: automatic, `bayes` above `local_search_threshold` runnable candidates or when
    /// `max_candidates` is fewer than them, else `exhaustive`.
    std::optional<SearchStrategy> strategy{};
    /// Per key: once spent, the search proposes no new point and the final race begins.
    std::optional<std::chrono::milliseconds> budget{};
    /// Per key: the most distinct candidates measured (the reference included).
    std::optional<std::size_t> max_candidates{};
    /// The same seed and the same timings give the same points in the same order.
    std::uint64_t seed = 0;
    /// `local` and `bayes`: restarts in a row that find nothing clearly better (a median below
    /// the best's median interval) before the search ends (`genetic`: generations). Nullopt:
    /// local_patience (`genetic`: genetic_patience), and `bayes` also ends after 4 such restarts
    /// once its surrogate expects its best proposal to gain less than 0.03%. Set, it is waited
    /// out in full.
    std::optional<std::size_t> patience{};

    friend bool operator==(const SearchSettings&, const SearchSettings&) = default;
};

/// Above this many runnable candidates a key is searched with `bayes` (a neighbourhood search
/// that Bayesian optimisation leads and restarts) unless told otherwise: racing them all costs
/// more than a search that measures a few per cent.
inline constexpr std::size_t local_search_threshold = 256;

/// `local` and `bayes` end after this many fruitless restarts in a row unless told otherwise:
/// rugged spaces hide their best basins, and restarts cost little next to a missed optimum.
/// Replayed over 20 seeds (scripts/bench-search.py --replay), 12 instead of 4 reached 5% of the
/// optimum in 20 seeds of the GEMM-like space instead of 17, 19 of the conv-like one instead of 10,
/// and 17 of the recorded split-K one instead of 6, for 1.5-2x the points measured.
inline constexpr std::size_t local_patience = 12;

/// `genetic` ends after this many generations in a row that find nothing clearly better unless
/// told otherwise: each generation is 16 new points, more than most of `local`'s restarts
/// measure once the search has settled, so fewer of them make as long a wait.
inline constexpr std::size_t genetic_patience = 4;

/// The most fruitless restarts (`genetic`: generations) a setting may ask for: beyond it a search
/// is exhaustive in all but name, and a larger number is almost certainly a typo.
inline constexpr std::size_t max_patience = 1000;

/// The strategy `settings` choose for a key with `runnable` candidates.
SearchStrategy choose_strategy(const SearchSettings& settings, std::size_t runnable);

/// A candidate offered to a search, with its grid position if it comes from a grid (without
/// one it has no neighbours).
struct SearchPoint {
    BenchmarkCandidate candidate;
    std::optional<GridPosition> position;
};

/// What a search asks of the caller.
struct SearchHooks {
    /// Called once per point before its first reading; a failure drops the point (a replay's
    /// recorded failures). Empty: every point is admitted.
    std::function<std::optional<CandidateFailure>(std::size_t index)> admit;
    /// The output check, called once per point once a reading says it may matter: before its
    /// second reading, or after its only one when that is not far behind the best (one that
    /// is stays unchecked, SearchStep::unchecked), and before the race for every finalist; the
    /// reference (`first`) before any reading. A failure drops the point. Empty: no check.
    std::function<std::optional<CandidateFailure>(std::size_t index)> check;
    SampleSource measure;
    /// The clock the budget is read from. Empty: std::chrono::steady_clock.
    std::function<std::chrono::steady_clock::time_point()> now;
};

struct SearchOutcome {
    /// The final race's ranking first, then the points measured only by the search (flagged
    /// eliminated, fastest first); failures of the search and the race.
    BenchmarkOutcome benchmark;
    SearchTrace trace;
};

/// Searches `points` with `strategy`, measuring each proposed point briefly, then races the best
/// ones found with `sampling` (run_benchmark). `first` (a position in `points`) is measured
/// before any other: the reference of an output check, whose output the others are compared to.
SearchOutcome run_search(std::span<const SearchPoint> points, SearchStrategy strategy,
                         const SearchSettings& settings, const SamplingSettings& sampling,
                         const SearchHooks& hooks, std::optional<std::size_t> first = {});

/// The search's summary recorded in an entry's `settings`: strategy, seed, budget, limit, and
/// how many of the runnable candidates were measured.
nlohmann::json search_summary_json(const SearchSettings& settings, const SearchTrace& trace);

}  // namespace spvtune::tune
