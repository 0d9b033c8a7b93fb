#pragma once

#include <string>
#include <string_view>

namespace spvtune::html {

/// `text` with `& < > " '` replaced by entities, safe inside an HTML or SVG element and inside
/// a quoted attribute.
std::string escape_xml(std::string_view text);

/// A coordinate as the SVG text writes it: at most one decimal, no trailing ".0".
std::string coordinate(double value);

/// Builds the text of one inline `<svg>` element. Styling comes from CSS classes (chart_css()),
/// which keeps a chart of thousands of sample dots small; every text is escaped.
class SvgWriter {
  public:
    enum class Anchor { start, middle, end };

    /// `label` describes the chart to screen readers (role="img").
    SvgWriter(double width, double height, std::string_view css_class, std::string_view label);

    /// A rectangle; a non-empty `tooltip` becomes its <title>, shown on hover without scripts.
    void rect(double x, double y, double width, double height, std::string_view css_class,
              std::string_view tooltip = {}, std::string_view fill = {});
    void line(double x1, double y1, double x2, double y2, std::string_view css_class);
    /// A path of absolute commands, e.g. "M1 2H30" (whiskers with their caps as one element).
    void path(std::string_view commands, std::string_view css_class);
    void circle(double cx, double cy, double r, std::string_view css_class = {},
                std::string_view tooltip = {});
    void text(double x, double y, std::string_view content, std::string_view css_class,
              Anchor anchor = Anchor::start);
    void open_group(std::string_view css_class);
    void close_group();

    /// The finished `<svg>...</svg>`.
    std::string finish();

  private:
    void close_element(std::string_view element, std::string_view tooltip);

    std::string out_;
};

}  // namespace spvtune::html
