#pragma once

#include <functional>
#include <string>
#include <vector>

namespace spvtune::html {

/// How a chart prints a value (a tick, a median): "1.5 ms", "0.95x".
using ValueFormat = std::function<std::string(double)>;

/// Maps values onto pixel positions along one axis, linearly or logarithmically, over a domain
/// widened to round bounds so that the first and last ticks sit at the ends, or fitted to the
/// values (fitted_log).
class Scale {
  public:
    enum class Kind { linear, log };

    /// A linear scale over [low, high] widened to multiples of a 1-2-5 step (about five ticks).
    static Scale linear(double low, double high, double from_px, double to_px);
    /// A logarithmic scale over [low, high] (both > 0) widened to powers of ten.
    static Scale log(double low, double high, double from_px, double to_px);
    /// A logarithmic scale over [low, high] (both > 0) with a margin of a twentieth of its span
    /// at either end, not widened further: widening a span of a few times to whole decades
    /// would leave the values a fraction of the axis.
    static Scale fitted_log(double low, double high, double from_px, double to_px);
    /// The scale that shows values from `low` to `high`: log when they are all positive and
    /// span more than `wide_range` (high / low), since a linear axis then squeezes the fast
    /// ones into a few pixels; else linear, from zero when `from_zero` (bars).
    static Scale fitting(double low, double high, double from_px, double to_px, bool from_zero);

    static constexpr double wide_range = 10.0;

    Kind kind() const { return kind_; }
    double low() const { return low_; }
    double high() const { return high_; }
    /// The pixel position of `value`, clamped to the axis (a log scale maps values <= 0 to its
    /// start).
    double position(double value) const;
    /// Tick values from low() to high(): the 1-2-5 steps of a linear scale; powers of ten of a
    /// log scale, with 2x and 5x between them when it spans fewer than three decades, or, when
    /// it spans less than one, 1-2-5 steps as on a linear scale (so short a log axis barely
    /// bends).
    std::vector<double> ticks() const;

  private:
    Scale(Kind kind, double low, double high, double from_px, double to_px, double step);

    Kind kind_;
    double low_;
    double high_;
    double from_px_;
    double to_px_;
    double step_;  ///< linear tick step
};

}  // namespace spvtune::html
