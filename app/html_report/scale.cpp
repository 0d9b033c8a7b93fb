#include "scale.hpp"

#include <algorithm>
#include <cmath>

namespace spvtune::html {
namespace {

/// The 1, 2 or 5 times a power of ten nearest above `rough`.
double nice_step(double rough) {
    if (!(rough > 0) || !std::isfinite(rough)) {
        return 1;
    }
    const double magnitude = std::pow(10.0, std::floor(std::log10(rough)));
    for (const double factor : {1.0, 2.0, 5.0}) {
        if (factor * magnitude >= rough * (1 - 1e-9)) {
            return factor * magnitude;
        }
    }
    return 10 * magnitude;
}

}  // namespace

Scale::Scale(Kind kind, double low, double high, double from_px, double to_px, double step)
    : kind_(kind), low_(low), high_(high), from_px_(from_px), to_px_(to_px), step_(step) {}

Scale Scale::linear(double low, double high, double from_px, double to_px) {
    if (!(high > low)) {
        // One value (or none): a span around it, so it sits inside the axis.
        const double half = low == 0 ? 1 : std::abs(low) / 2;
        low -= half;
        high = low + 4 * half;
    }
    const double step = nice_step((high - low) / 5);
    return Scale(Kind::linear, std::floor(low / step + 1e-9) * step,
                 std::ceil(high / step - 1e-9) * step, from_px, to_px, step);
}

Scale Scale::log(double low, double high, double from_px, double to_px) {
    low = std::max(low, 1e-300);
    high = std::max(high, low);
    double first = std::floor(std::log10(low) + 1e-9);
    double last = std::ceil(std::log10(high) - 1e-9);
    if (last <= first) {
        last = first + 1;
    }
    return Scale(Kind::log, std::pow(10.0, first), std::pow(10.0, last), from_px, to_px, 0);
}

Scale Scale::fitted_log(double low, double high, double from_px, double to_px) {
    low = std::max(low, 1e-300);
    high = std::max(high, low);
    if (!(high > low)) {
        // One value: a span around it, so it sits inside the axis.
        low /= 1.1;
        high *= 1.1;
    }
    const double margin = std::pow(high / low, 0.05);
    return Scale(Kind::log, low / margin, high * margin, from_px, to_px, 0);
}

Scale Scale::fitting(double low, double high, double from_px, double to_px, bool from_zero) {
    if (low > 0 && high / low > wide_range) {
        return log(low, high, from_px, to_px);
    }
    return linear(from_zero ? std::min(0.0, low) : low, high, from_px, to_px);
}

double Scale::position(double value) const {
    double fraction = 0;
    if (kind_ == Kind::log) {
        fraction = value > 0 ? std::log10(value / low_) / std::log10(high_ / low_) : 0;
    } else {
        fraction = (value - low_) / (high_ - low_);
    }
    fraction = std::clamp(std::isfinite(fraction) ? fraction : 0.0, 0.0, 1.0);
    return from_px_ + fraction * (to_px_ - from_px_);
}

std::vector<double> Scale::ticks() const {
    std::vector<double> ticks;
    if (kind_ == Kind::linear) {
        const auto count = static_cast<long>(std::llround((high_ - low_) / step_));
        for (long i = 0; i <= count; ++i) {
            // Computed from the start each time, so no rounding error accumulates.
            const double tick = low_ + static_cast<double>(i) * step_;
            ticks.push_back(std::abs(tick) < step_ * 1e-9 ? 0.0 : tick);
        }
        return ticks;
    }
    const auto inside = [this](double tick) {
        return tick >= low_ * (1 - 1e-9) && tick <= high_ * (1 + 1e-9);
    };
    const double decades = std::log10(high_ / low_);
    if (decades < 1 - 1e-9) {
        const double step = nice_step((high_ - low_) / 5);
        for (auto i = static_cast<long>(std::ceil(low_ / step - 1e-9));
             inside(static_cast<double>(i) * step); ++i) {
            ticks.push_back(static_cast<double>(i) * step);
        }
        return ticks;
    }
    const auto first = static_cast<long>(std::floor(std::log10(low_) + 1e-9));
    const auto last = static_cast<long>(std::floor(std::log10(high_) + 1e-9));
    const bool few_decades = decades < 3 - 1e-9;
    for (long exponent = first; exponent <= last; ++exponent) {
        const double power = std::pow(10.0, static_cast<double>(exponent));
        for (const double factor : {1.0, 2.0, 5.0}) {
            if ((factor == 1 || few_decades) && inside(factor * power)) {
                ticks.push_back(factor * power);
            }
        }
    }
    return ticks;
}

}  // namespace spvtune::html
