#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "search_cross_covariances.hpp"
#include "search_grid.hpp"
#include "search_surrogate.hpp"

namespace spvtune::tune::detail {

/// Bayesian optimisation's choice of the next point, for any strategy that wants one: the
/// unmeasured point whose expected improvement on the fastest point measured so far is largest
/// under a LogTimeSurrogate of every measured point, among a seeded sample of the space and that
/// point's neighbours one level away in one or two parameters; points in seeded order while too
/// few are measured to fit or no unmeasured point has a grid position.
class BayesProposer {
  public:
    explicit BayesProposer(SearchRun& run);

    /// Nullopt when every point is measured.
    std::optional<std::size_t> next(const SearchRun& run);

    /// The unmeasured points one level away from `point` in two parameters at once, at most
    /// `count`, those the surrogate predicts fastest first, but those that switch two
    /// two-valued parameters (on/off flags) before the rest: having learnt that each flag alone
    /// costs, the surrogate cannot see a pair that only pays together. None while too few points
    /// are measured to fit.
    std::vector<std::size_t> predicted_pair_moves(const SearchRun& run, std::size_t point,
                                                  std::size_t count);

    /// The expected improvement on the fastest point (in log-time) of the point next() last
    /// proposed, the largest it found; nullopt when that point came from the seeded order.
    std::optional<double> last_expected_gain() const { return last_gain_; }

    /// Whether the last fit found the readings quiet (SearchRun::reading_spread() at most
    /// `quiet_spread`) and so gave the surrogate one-parameter terms. Under lavapipe's noise
    /// they cost seeds: a point whose levels each read slow on average, but which one lucky
    /// reading made the recorded best, is predicted slow and never measured (replayed over 40
    /// seeds, the 384-point split-K recording came within 5% of its best in 25 to 34 seeds
    /// with them, against 36 without).
    bool quiet() const { return quiet_; }
    static constexpr double quiet_spread = 0.1;

  private:
    /// A surrogate and the point each of its fitted inputs stands for.
    struct Fit {
        LogTimeSurrogate surrogate;
        std::vector<std::size_t> points;
    };
    /// The surrogate of every measured point (its settings searched again when due); nullopt
    /// while too few are measured to fit.
    std::optional<Fit> fitted(const SearchRun& run);

    GridIndex grid_;
    /// Each point's surrogate input (its levels scaled to [0, 1]), made once: the pool scored
    /// at each proposal would otherwise make two thousand anew (a twelfth of a replay's time).
    /// Empty levels for a point without a grid position.
    std::vector<SurrogateInput> inputs_;
    std::vector<std::size_t> order_;
    std::optional<LogTimeSurrogate::Settings> fitted_;
    std::size_t fitted_at_ = 0;
    std::optional<double> last_gain_;
    bool quiet_ = false;
    /// Kept for the settings in fitted_; cleared when they are searched again.
    CrossCovariances cross_;
};

/// Bayesian optimisation's proposals until `patience` points in a row found nothing clearly
/// better than the fastest measured (failures count only once a point ran; `quiet_patience`
/// instead while the proposer finds the readings quiet), the space is measured, or the budget
/// or limit is met: the fastest point measured, nullopt when none ran.
std::optional<std::size_t> bayes_phase(SearchRun& run, BayesProposer& proposer,
                                       std::size_t patience,
                                       std::optional<std::size_t> quiet_patience = std::nullopt);

}  // namespace spvtune::tune::detail
