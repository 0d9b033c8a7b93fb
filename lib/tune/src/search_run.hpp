#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <spvtune/tune/search.hpp>

namespace spvtune::tune::detail {

/// A small deterministic generator (splitmix64): the standard distributions differ between
/// library implementations, and a seed must pick the same points everywhere.
class SearchRandom {
  public:
    explicit SearchRandom(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next();
    /// Uniform enough in [0, bound) for picking points; bound > 0.
    std::size_t below(std::size_t bound) { return static_cast<std::size_t>(next() % bound); }

  private:
    std::uint64_t state_;
};

/// The state every strategy shares: which points were measured, their samples, the budget and
/// the limit on points, the trace, and the final race. Points are positions in the span.
class SearchRun {
  public:
    SearchRun(std::span<const SearchPoint> points, SearchStrategy strategy,
              const SearchSettings& settings, const SamplingSettings& sampling,
              const SearchHooks& hooks, std::optional<std::size_t> first);

    std::size_t size() const { return points_.size(); }
    const SearchSettings& settings() const { return settings_; }
    /// Points proposed so far (each admitted once, failed or not).
    std::size_t measured() const { return measured_; }
    /// The run's seeded generator, for a strategy's own random choices.
    SearchRandom& random() { return random_; }
    const SearchPoint& point(std::size_t p) const { return points_[p]; }

    /// Every point once, `first` leading, the rest in seeded random order.
    std::vector<std::size_t> shuffled_order();
    /// Every point once in the order given, `first` leading.
    std::vector<std::size_t> registration_order() const;

    /// Whether a new point may be measured: the budget is not spent and fewer than
    /// max_candidates points were.
    bool can_propose() const;
    bool budget_spent() const;

    bool touched(std::size_t p) const { return state_[p].touched; }
    /// Every touched point, in position order: the only ones with a median or dropped, which a
    /// strategy looks over at every proposal where a space may hold tens of thousands.
    std::span<const std::size_t> touched_points() const { return touched_; }
    bool dropped(std::size_t p) const { return state_[p].dropped; }
    /// Enters the point on its first touch (counting it as measured), then takes samples until
    /// it has `samples` search samples in all (without an output check, a warm-up run before the
    /// first), or until every reading of it is over `hopeless_probe_ratio` times the best median
    /// of the other points. Its output is checked once a reading says it may matter: before its
    /// second reading, or after its only one when that is not far behind. A point far behind is
    /// never checked unless it becomes a finalist: it cannot win, and its check would cost a run.
    /// Its median, or nullopt once it failed. A point already holding enough samples costs
    /// nothing but its check, should that be due.
    std::optional<double> probe(std::size_t p, std::size_t samples);
    /// Enters and checks a point without sampling it (random: the race samples it); false if
    /// dropped.
    bool admit(std::size_t p);
    /// The search median of a probed point (nullopt: failed or never sampled).
    std::optional<double> median(std::size_t p) const;
    /// Whether probed point `a`'s median lies below the low end of probed point `b`'s median
    /// interval: faster by more than `b`'s own readings vary (false when either has none).
    bool clearly_faster(std::size_t a, std::size_t b) const;

    /// How far repeated readings of one point lie apart: of the points with at least three
    /// search samples, the median of their first three's range over their middle (nullopt:
    /// none has three). About 0.02 for readings 1% apart, as a GPU's; 0.2 to 1.2 in the lavapipe
    /// recordings, taken on a shared machine.
    std::optional<double> reading_spread() const;
    /// Touched, not dropped points with search samples, fastest median first (ties: position).
    std::vector<std::size_t> by_median() const;

    /// Races `finalists` (positions) and assembles the outcome.
    SearchOutcome finish(const std::vector<std::size_t>& finalists);

    /// A point read this many times slower than the best cannot be near it: its first reading
    /// would have to be that far off, and every strategy only needs to know it is far behind.
    static constexpr double hopeless_probe_ratio = 1.5;

  private:
    /// The lowest median of the probed points other than `p` (nullopt: none).
    std::optional<double> best_median_except(std::size_t p) const;
    /// On the point's first touch: counts it as measured and starts its trace step, the
    /// reference (`first`) entered and checked before any other. False if it was dropped.
    bool enter(std::size_t p);
    /// Runs the point's output check unless it ran; false (and the point dropped) if it fails.
    bool check(std::size_t p);

    struct PointState {
        bool touched = false;
        bool dropped = false;
        bool checked = false;
        std::vector<double> samples;
        /// Of `samples`, summarised at each new one: a search asks for every point's median at
        /// every proposal.
        double median_ns = 0.0;
        TimingMethod method = TimingMethod::host_clock;
        std::size_t step = 0;  ///< in the trace
    };
    void drop(std::size_t p, CandidateFailure failure);

    std::span<const SearchPoint> points_;
    const SearchSettings& settings_;
    const SamplingSettings& sampling_;
    const SearchHooks& hooks_;
    std::optional<std::size_t> first_;
    std::chrono::steady_clock::time_point start_;
    SearchRandom random_;
    std::vector<PointState> state_;
    std::vector<std::size_t> touched_;  ///< ascending
    std::size_t measured_ = 0;
    SearchOutcome outcome_;
};

/// The strategies: each proposes points through `run` and names the finalists.
std::vector<std::size_t> search_exhaustive(SearchRun& run);
std::vector<std::size_t> search_random(SearchRun& run);
std::vector<std::size_t> search_halving(SearchRun& run);
std::vector<std::size_t> search_local(SearchRun& run);
std::vector<std::size_t> search_genetic(SearchRun& run);
std::vector<std::size_t> search_bayes(SearchRun& run);

}  // namespace spvtune::tune::detail
