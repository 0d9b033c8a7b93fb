#include <cstdio>

#include <spvtune/base/duration_text.hpp>

namespace spvtune::base {

std::string duration_text(double seconds) {
    char text[32];
    if (seconds < 1e-3) {
        std::snprintf(text, sizeof text, "%.3g us", seconds * 1e6);
    } else if (seconds < 1) {
        std::snprintf(text, sizeof text, "%.3g ms", seconds * 1e3);
    } else {
        std::snprintf(text, sizeof text, "%.3g s", seconds);
    }
    return text;
}

}  // namespace spvtune::base
