#pragma once

#include <string>
#include <string_view>

#include "scale.hpp"
#include "svg_writer.hpp"

namespace spvtune::html {

/// A horizontal axis for `scale`: a grid line from `top` to `bottom` at every tick and the tick's
/// label under it, then the axis title centred below the labels.
void draw_x_axis(SvgWriter& svg, const Scale& scale, double top, double bottom,
                 const ValueFormat& format, std::string_view title);

/// The path of an interval drawn from x `from` to `to` at height `middle`, with end caps.
std::string whisker_path(double from, double to, double middle);

/// The height draw_x_axis needs below `bottom`.
inline constexpr double x_axis_height = 34;

}  // namespace spvtune::html
