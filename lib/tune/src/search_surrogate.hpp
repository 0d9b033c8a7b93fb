#pragma once

#include <cstddef>
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
    LogTimeSurrogate(std::vector<SurrogateInput> inputs, const std::vector<double>& log_ns);

    /// Per-parameter length scales and the noise, to reuse in the next fit.
    struct Settings {
        std::vector<double> lengths;
        double noise = 0.01;
    };
    /// Fits with `settings` as they are (no search of the grid), for the points in between
    /// full fits.
    LogTimeSurrogate(std::vector<SurrogateInput> inputs, const std::vector<double>& log_ns,
                     const Settings& settings);
    const Settings& settings() const { return settings_; }

    SurrogatePrediction predict(const SurrogateInput& input) const;
    /// The expected amount by which `input`'s log-time falls below `best` (the acquisition).
    double expected_improvement(const SurrogateInput& input, double best) const;

  private:
    double covariance(const SurrogateInput& a, const SurrogateInput& b) const;
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
    std::vector<double> lower_;  ///< Cholesky factor, row-major n x n
    std::vector<double> alpha_;  ///< covariance^-1 * standard_
};

}  // namespace spvtune::tune::detail
