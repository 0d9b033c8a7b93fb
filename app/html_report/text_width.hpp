#pragma once

#include <string>
#include <string_view>

namespace spvtune::html {

/// The width of `text` in CSS pixels at `font_px`, in DejaVu Sans (Bold when `bold`): what the
/// charts' "system-ui, sans-serif" is on most Linux systems, and wider than what it is elsewhere
/// (Segoe UI, San Francisco, Roboto), so room sized by it holds the text wherever the page is
/// opened. A character beyond ASCII counts as one em, as wide as the widest.
double text_width(std::string_view text, double font_px, bool bold);

/// `text` whole when text_width() says it fits in `width`, else its longest start that fits
/// with an ellipsis ("…") after it; never cut inside a UTF-8 character.
std::string fit_text(std::string_view text, double width, double font_px, bool bold);

}  // namespace spvtune::html
