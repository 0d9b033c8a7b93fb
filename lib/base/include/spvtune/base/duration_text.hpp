#pragma once

#include <string>

namespace spvtune::base {

/// A duration for a message, to three significant digits in the unit that reads best:
/// "12.5 us", "200 ms", "1.2 s".
std::string duration_text(double seconds);

}  // namespace spvtune::base
