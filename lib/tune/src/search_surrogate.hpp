#pragma once

#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

namespace spvtune::tune::detail {

/// A point of the grid as the surrogate sees it: each parameter's level scaled to [0, 1] by the
/// highest level of that parameter, and the family, which sets points of other families apart.
struct SurrogateInput {
    std::size_t family = 0;
    std::vector<double> levels;
};

/// The surrogate's belief about one point: the mean and standard deviation of its log-time.
struct SurrogatePrediction {
    double mean = 0.0;
    double deviation = 0.0;
};

/// Which terms a LogTimeSurrogate's covariance may hold.
enum class SurrogateTerms {
    /// The joint term only: every parameter's level together sets how alike two points are.
    joint,
    /// Half the variance in the joint term and half in a sum of one-parameter terms: what each
    /// level does whatever the others are, which a few dozen points of a space of ten
    /// parameters tell where the joint term alone sees every unmeasured point as far from all.
    joint_and_one_parameter,
};

/// The per-parameter parts of a LogTimeSurrogate's covariance for each pair of its fitted points,
/// as its search of settings keeps them.
struct SurrogatePairTerms {
    std::size_t columns = 0;  ///< parameters, the most any input has
    /// Per pair (i, j <= i), then parameter: (level difference / length)^2.
    std::vector<double> joint;
    /// The same pairs and parameters: the one-parameter term.
    std::vector<double> one;
    std::vector<double> joint_lengths;  ///< the length each column of `joint` holds
    std::vector<double> one_lengths;    ///< and of `one`
};

/// A Gaussian process over grid points (Matern 5/2 on the scaled levels), fitted to log-times:
/// cheap enough to fit after every measured point of a search of a few hundred, and smooth
/// enough between levels that the points near a fast one are predicted fast. Its length scale
/// and noise are the pair of a small grid that explains the readings best (the marginal
/// likelihood), so a noisy lavapipe space and a quiet GPU space each get their own; with enough
/// points, each parameter's scale is then stretched or shrunk while that explains them better.
class LogTimeSurrogate {
  public:
    /// Fits to `inputs` with their log-times `log_ns` (same length, at least two, finite): tries
    /// 12 settings, and from 40 points on 4 more per parameter.
    LogTimeSurrogate(std::vector<SurrogateInput> inputs, const std::vector<double>& log_ns,
                     SurrogateTerms terms = SurrogateTerms::joint);

    /// Per-parameter length scales, the noise and the share of the one-parameter terms, to reuse
    /// in the next fit.
    struct Settings {
        std::vector<double> lengths;
        double noise = 0.01;
        double one_parameter_share = 0.0;
    };
    /// Fits with `settings` as they are (no search of the grid), for the points in between
    /// full fits.
    LogTimeSurrogate(std::vector<SurrogateInput> inputs, const std::vector<double>& log_ns,
                     const Settings& settings);
    const Settings& settings() const { return settings_; }

    SurrogatePrediction predict(const SurrogateInput& input) const;
    /// The expected amount by which `input`'s log-time falls below `best` (the acquisition).
    double expected_improvement(const SurrogateInput& input, double best) const;

    /// The fitted points, in the order cross_covariances() gives.
    std::size_t fitted_points() const { return inputs_.size(); }
    /// `input`'s covariance with the fitted point at `fitted`: a pure function of the two
    /// points and the settings, so it may be kept while the settings stay.
    double covariance_with(const SurrogateInput& input, std::size_t fitted) const;
    /// `input`'s covariance with every fitted point.
    std::vector<double> cross_covariances(const SurrogateInput& input) const;

    /// Of the points whose cross_covariances() are `cross` (at least one), the first whose
    /// expected_improvement() on `best` is the largest, and that improvement. A point's
    /// deviation is at most what its correlation with its most correlated fitted point leaves
    /// (Cauchy-Schwarz), which bounds its improvement from above at the cost of its mean; only
    /// points whose bound could still beat the best found are scored exactly, so most of a
    /// large pool skips the triangular solve.
    std::pair<std::size_t, double> most_expected_improvement(std::vector<std::vector<double>> cross,
                                                             double best) const;

  private:
    double covariance(const SurrogateInput& a, const SurrogateInput& b) const;
    /// The mean and deviation of the log-time of the point whose cross_covariances are `k`;
    /// `k` is overwritten.
    SurrogatePrediction predict_from(std::vector<double>& k) const;
    /// The mean of the log-time of the point whose cross_covariances are `k`.
    double mean_from(const std::vector<double>& k) const;
    /// Factorises the covariance for the current length scale and noise; the log marginal
    /// likelihood of the standardised log-times.
    double factorise();
    void standardise(const std::vector<double>& log_ns);
    /// Replaces `values` (one per input) by L^-1 values, L the covariance's Cholesky factor.
    void solve_lower(std::vector<double>& values) const;

    std::vector<SurrogateInput> inputs_;
    std::vector<double> standard_;  ///< log-times, standardised
    double mean_ = 0.0;
    double scale_ = 1.0;
    Settings settings_;
    /// Per parameter, its one-parameter term at `table_steps` + 1 even steps of the scaled
    /// level difference from 0 to 1: the term takes an exponential per parameter and pair of
    /// points, which made a search of a ten-parameter space three times as slow.
    std::vector<std::vector<double>> one_parameter_table_;
    static constexpr std::size_t table_steps = 1024;
    /// The lengths one_parameter_table_ was made for, axis by axis.
    std::vector<double> tabulated_lengths_;
    /// Tabulates the one-parameter terms for the current settings (none at a share of 0); an
    /// axis whose length is unchanged keeps its table.
    void tabulate();

    /// Each fitted pair's per-parameter parts of covariance(), kept while the settings are
    /// searched: a trial changes the noise or one parameter's length, so most parts stay, and
    /// computing them all anew for each of up to 56 trials was half a refit.
    std::optional<SurrogatePairTerms> pair_terms_;
    /// Brings the stale columns of pair_terms_ up to the current settings.
    void refresh_pair_terms();
    /// covariance() of fitted points i and j <= i, from pair_terms_ when kept.
    double fitted_covariance(std::size_t i, std::size_t j) const;
    std::vector<double> lower_;  ///< Cholesky factor, row-major n x n
    std::vector<double> alpha_;  ///< covariance^-1 * standard_
};

}  // namespace spvtune::tune::detail
