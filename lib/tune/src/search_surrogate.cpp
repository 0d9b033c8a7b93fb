#include "search_surrogate.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <numeric>
#include <utility>

namespace spvtune::tune::detail {
namespace {

/// Length scales (in scaled levels) and noise variances (of standardised log-times) tried.
constexpr std::array length_scales{0.15, 0.3, 0.6, 1.2};
constexpr std::array noise_levels{0.002, 0.02, 0.2};
/// The squared scaled distance between points of two families: far enough that one family's
/// times say next to nothing about another's (a correlation of 0.005).
constexpr double family_apart = 16.0;
/// Points fitted before each parameter gets its own length scale.
constexpr std::size_t per_parameter_from = 40;
/// The most fitted points whose pair terms are kept while the settings are searched (their
/// memory grows with the square: 300 points of 11 parameters take 8 MB).
constexpr std::size_t most_points_with_pair_terms = 300;

/// The Matern 5/2 correlation at a squared scaled distance.
double matern(double squared) {
    const double r = std::sqrt(5.0 * squared);
    return (1.0 + r + r * r / 3.0) * std::exp(-r);
}

double normal_density(double z) {
    return std::exp(-0.5 * z * z) / std::sqrt(2 * std::numbers::pi);
}
double normal_cdf(double z) {
    return 0.5 * std::erfc(-z / std::numbers::sqrt2);
}

/// A one-parameter term from its table (LogTimeSurrogate::tabulate) at a difference of scaled
/// levels: levels are scaled to [0, 1], so the difference is too; linear between steps.
inline double interpolate(const std::vector<double>& table, double difference) {
    const double at = std::min(std::fabs(difference), 1.0) * static_cast<double>(table.size() - 2);
    const auto step = static_cast<std::size_t>(at);
    return table[step] + (at - static_cast<double>(step)) * (table[step + 1] - table[step]);
}

/// A covariance from its parts: the joint term at `squared`, and the mean of the one-parameter
/// terms over `axes` parameters (`one_parameter_sum()` gives their sum, asked for only when
/// needed) with weight `share`. Families share no level effects: one family's levels say
/// nothing of another's.
template <class Sum>
double blend(double squared, std::size_t axes, bool same_family, double share,
             const Sum& one_parameter_sum) {
    if (share <= 0.0 || axes == 0) {
        return matern(squared);
    }
    if (!same_family) {
        return (1.0 - share) * matern(squared);
    }
    const double one_parameter = one_parameter_sum() / static_cast<double>(axes);
    return (1.0 - share) * matern(squared) + share * one_parameter;
}

/// The expected improvement of a normal belief whose mean is `gain` below the best and whose
/// deviation is `deviation`: increasing in both.
double improvement(double gain, double deviation) {
    const double z = gain / deviation;
    return gain * normal_cdf(z) + deviation * normal_density(z);
}

}  // namespace

void LogTimeSurrogate::standardise(const std::vector<double>& log_ns) {
    const auto n = static_cast<double>(log_ns.size());
    for (const double y : log_ns) {
        mean_ += y / n;
    }
    double variance = 0.0;
    for (const double y : log_ns) {
        variance += (y - mean_) * (y - mean_) / n;
    }
    scale_ = variance > 0.0 ? std::sqrt(variance) : 1.0;
    for (const double y : log_ns) {
        standard_.push_back((y - mean_) / scale_);
    }
}

LogTimeSurrogate::LogTimeSurrogate(std::vector<SurrogateInput> inputs,
                                   const std::vector<double>& log_ns, SurrogateTerms terms)
    : inputs_(std::move(inputs)) {
    standardise(log_ns);
    std::size_t axes = 0;
    for (const SurrogateInput& input : inputs_) {
        axes = std::max(axes, input.levels.size());
    }
    const double share = terms == SurrogateTerms::joint_and_one_parameter ? 0.5 : 0.0;
    if (inputs_.size() <= most_points_with_pair_terms) {
        pair_terms_.emplace();
        pair_terms_->columns = axes;
    }
    double best_fit = -std::numeric_limits<double>::infinity();
    Settings best{std::vector<double>(axes, length_scales[1]), noise_levels.back(), share};
    for (const double length : length_scales) {
        for (const double noise : noise_levels) {
            settings_ = {std::vector<double>(axes, length), noise, share};
            if (const double fit = factorise(); fit > best_fit) {
                best_fit = fit;
                best = settings_;
            }
        }
    }
    // Then each parameter its own scale: a parameter that barely matters is stretched out, one
    // whose every level changes the time is shrunk. Not from a few points: fitted to the first
    // dozens, per-parameter scales chased the noise of lavapipe's readings (replayed, the
    // recorded stencil and synthetic spaces fell to 0.960 and 0.752 of the optimum after 20
    // and 50 points, from 0.986 and 0.837 with one scale).
    const int passes = inputs_.size() >= per_parameter_from && std::isfinite(best_fit) ? 2 : 0;
    for (int pass = 0; pass < passes; ++pass) {
        for (std::size_t axis = 0; axis < axes; ++axis) {
            for (const double factor : {0.5, 2.0}) {
                settings_ = best;
                settings_.lengths[axis] *= factor;
                if (const double fit = factorise(); fit > best_fit) {
                    best_fit = fit;
                    best = settings_;
                }
            }
        }
    }
    settings_ = best;
    factorise();
    pair_terms_.reset();  // the searching is done
}

LogTimeSurrogate::LogTimeSurrogate(std::vector<SurrogateInput> inputs,
                                   const std::vector<double>& log_ns, const Settings& settings)
    : inputs_(std::move(inputs)), settings_(settings) {
    standardise(log_ns);
    factorise();
}

double LogTimeSurrogate::covariance(const SurrogateInput& a, const SurrogateInput& b) const {
    const bool same_family = a.family == b.family;
    const double share = settings_.one_parameter_share;
    const std::size_t axes = std::min(a.levels.size(), b.levels.size());
    const std::size_t own_lengths = std::min(axes, settings_.lengths.size());
    const double* const x = a.levels.data();
    const double* const y = b.levels.data();
    double squared = same_family ? 0.0 : family_apart;
    for (std::size_t i = 0; i < own_lengths; ++i) {
        const double d = (x[i] - y[i]) / settings_.lengths[i];
        squared += d * d;
    }
    for (std::size_t i = own_lengths; i < axes; ++i) {
        const double d = x[i] - y[i];  // a parameter with no length of its own has length 1
        squared += d * d;
    }
    return blend(squared, axes, same_family, share, [&] {
        double sum = 0.0;
        const std::size_t tabulated = std::min(axes, one_parameter_table_.size());
        for (std::size_t i = 0; i < tabulated; ++i) {
            sum += interpolate(one_parameter_table_[i], x[i] - y[i]);
        }
        for (std::size_t i = tabulated; i < axes; ++i) {
            const double d = x[i] - y[i];  // a parameter with no length of its own has length 1
            sum += matern(d * d);
        }
        return sum;
    });
}

void LogTimeSurrogate::tabulate() {
    if (settings_.one_parameter_share <= 0.0) {
        one_parameter_table_.clear();
        tabulated_lengths_.clear();
        return;
    }
    one_parameter_table_.resize(settings_.lengths.size());
    tabulated_lengths_.resize(settings_.lengths.size(), std::numeric_limits<double>::quiet_NaN());
    for (std::size_t axis = 0; axis < settings_.lengths.size(); ++axis) {
        const double length = settings_.lengths[axis];
        if (tabulated_lengths_[axis] == length) {
            continue;
        }
        std::vector<double>& table = one_parameter_table_[axis];
        table.resize(table_steps + 2);
        for (std::size_t step = 0; step < table.size(); ++step) {
            const double d = static_cast<double>(step) / table_steps / length;
            table[step] = matern(d * d);
        }
        tabulated_lengths_[axis] = length;
    }
}

void LogTimeSurrogate::refresh_pair_terms() {
    SurrogatePairTerms& terms = *pair_terms_;
    const std::size_t n = inputs_.size();
    const std::size_t columns = terms.columns;
    const double none = std::numeric_limits<double>::quiet_NaN();
    if (terms.joint.empty()) {
        terms.joint.assign(n * (n + 1) / 2 * columns, 0.0);
        terms.one.assign(terms.joint.size(), 0.0);
        terms.joint_lengths.assign(columns, none);
        terms.one_lengths.assign(columns, none);
    }
    const bool one_parameter = settings_.one_parameter_share > 0.0;
    for (std::size_t axis = 0; axis < columns; ++axis) {
        const double length = settings_.lengths[axis];
        const bool joint_stale = terms.joint_lengths[axis] != length;
        const bool one_stale = one_parameter && terms.one_lengths[axis] != length;
        if (!joint_stale && !one_stale) {
            continue;
        }
        for (std::size_t i = 0, pair = 0; i < n; ++i) {
            for (std::size_t j = 0; j <= i; ++j, ++pair) {
                const std::vector<double>& x = inputs_[i].levels;
                const std::vector<double>& y = inputs_[j].levels;
                if (axis >= std::min(x.size(), y.size())) {
                    continue;
                }
                const double difference = x[axis] - y[axis];
                if (joint_stale) {
                    const double d = difference / length;
                    terms.joint[pair * columns + axis] = d * d;
                }
                if (one_stale) {
                    terms.one[pair * columns + axis] =
                        interpolate(one_parameter_table_[axis], difference);
                }
            }
        }
        terms.joint_lengths[axis] = length;
        if (one_stale) {
            terms.one_lengths[axis] = length;
        }
    }
}

double LogTimeSurrogate::fitted_covariance(std::size_t i, std::size_t j) const {
    if (!pair_terms_) {
        return covariance(inputs_[i], inputs_[j]);
    }
    // covariance()'s arithmetic, in its order, on the kept parts.
    const SurrogateInput& a = inputs_[i];
    const SurrogateInput& b = inputs_[j];
    const bool same_family = a.family == b.family;
    const double share = settings_.one_parameter_share;
    const std::size_t axes = std::min(a.levels.size(), b.levels.size());
    const std::size_t at = (i * (i + 1) / 2 + j) * pair_terms_->columns;
    double squared = same_family ? 0.0 : family_apart;
    for (std::size_t axis = 0; axis < axes; ++axis) {
        squared += pair_terms_->joint[at + axis];
    }
    return blend(squared, axes, same_family, share, [&] {
        double sum = 0.0;
        for (std::size_t axis = 0; axis < axes; ++axis) {
            sum += pair_terms_->one[at + axis];
        }
        return sum;
    });
}

double LogTimeSurrogate::factorise() {
    tabulate();
    if (pair_terms_) {
        refresh_pair_terms();
    }
    const std::size_t n = inputs_.size();
    lower_.assign(n * n, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = 0; j <= i; ++j) {
            double sum = fitted_covariance(i, j) + (i == j ? settings_.noise : 0.0);
            for (std::size_t k = 0; k < j; ++k) {
                sum -= lower_[i * n + k] * lower_[j * n + k];
            }
            if (i == j) {
                if (sum <= 0.0) {
                    return -std::numeric_limits<double>::infinity();
                }
                lower_[i * n + i] = std::sqrt(sum);
            } else {
                lower_[i * n + j] = sum / lower_[j * n + j];
            }
        }
    }
    // alpha = L^-T L^-1 y
    std::vector<double> forward = standard_;
    solve_lower(forward);
    double log_determinant = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        log_determinant += 2.0 * std::log(lower_[i * n + i]);
    }
    alpha_.assign(n, 0.0);
    for (std::size_t i = n; i-- > 0;) {
        double sum = forward[i];
        for (std::size_t k = i + 1; k < n; ++k) {
            sum -= lower_[k * n + i] * alpha_[k];
        }
        alpha_[i] = sum / lower_[i * n + i];
    }
    double fit = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        fit -= 0.5 * forward[i] * forward[i];
    }
    return fit - 0.5 * log_determinant;
}

void LogTimeSurrogate::solve_lower(std::vector<double>& values) const {
    const std::size_t n = values.size();
    for (std::size_t i = 0; i < n; ++i) {
        double sum = values[i];
        for (std::size_t j = 0; j < i; ++j) {
            sum -= lower_[i * n + j] * values[j];
        }
        values[i] = sum / lower_[i * n + i];
    }
}

double LogTimeSurrogate::covariance_with(const SurrogateInput& input, std::size_t fitted) const {
    return covariance(input, inputs_[fitted]);
}

std::vector<double> LogTimeSurrogate::cross_covariances(const SurrogateInput& input) const {
    std::vector<double> k(inputs_.size());
    for (std::size_t i = 0; i < inputs_.size(); ++i) {
        k[i] = covariance(input, inputs_[i]);
    }
    return k;
}

double LogTimeSurrogate::mean_from(const std::vector<double>& k) const {
    double mean = 0.0;
    for (std::size_t i = 0; i < k.size(); ++i) {
        mean += k[i] * alpha_[i];
    }
    return mean_ + scale_ * mean;
}

SurrogatePrediction LogTimeSurrogate::predict_from(std::vector<double>& k) const {
    const double mean = mean_from(k);
    // v = L^-1 k; variance = k(x, x) - v.v
    solve_lower(k);
    double explained = 0.0;
    for (const double v : k) {
        explained += v * v;
    }
    const double variance = std::max(1.0 - explained, 1e-12);
    return {mean, scale_ * std::sqrt(variance)};
}

SurrogatePrediction LogTimeSurrogate::predict(const SurrogateInput& input) const {
    std::vector<double> k = cross_covariances(input);
    return predict_from(k);
}

double LogTimeSurrogate::expected_improvement(const SurrogateInput& input, double best) const {
    const SurrogatePrediction p = predict(input);
    return improvement(best - p.mean, p.deviation);
}

std::pair<std::size_t, double> LogTimeSurrogate::most_expected_improvement(
    std::vector<std::vector<double>> cross, double best) const {
    // Every point's prior variance is 1 and each fitted point's is 1 + noise, so for any fitted
    // i, k.K^-1.k >= k_i^2 / (1 + noise): the explained part is at least that.
    std::vector<double> bounds(cross.size());
    for (std::size_t j = 0; j < cross.size(); ++j) {
        double closest = 0.0;
        for (const double c : cross[j]) {
            closest = std::max(closest, c * c);
        }
        const double variance = std::max(1.0 - closest / (1.0 + settings_.noise), 1e-12);
        const double bound = improvement(best - mean_from(cross[j]), scale_ * std::sqrt(variance));
        bounds[j] = std::isnan(bound) ? -std::numeric_limits<double>::infinity() : bound;
    }
    std::vector<std::size_t> order(cross.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::ranges::stable_sort(order,
                             [&](std::size_t a, std::size_t b) { return bounds[a] > bounds[b]; });
    std::pair<std::size_t, double> chosen{0, -1.0};
    for (const std::size_t j : order) {
        // With room for rounding: the bound and the exact score reach the variance differently.
        if (bounds[j] < chosen.second - 1e-9 * std::fabs(chosen.second)) {
            break;
        }
        const SurrogatePrediction p = predict_from(cross[j]);
        const double gain = improvement(best - p.mean, p.deviation);
        if (gain > chosen.second || (gain == chosen.second && j < chosen.first)) {
            chosen = {j, gain};
        }
    }
    return chosen;
}

}  // namespace spvtune::tune::detail
