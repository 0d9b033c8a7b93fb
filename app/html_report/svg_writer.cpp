#include "svg_writer.hpp"

#include <cmath>
#include <cstdio>

namespace spvtune::html {

std::string escape_xml(std::string_view text) {
    std::string escaped;
    escaped.reserve(text.size());
    for (const char c : text) {
        switch (c) {
            case '&':
                escaped += "&amp;";
                break;
            case '<':
                escaped += "&lt;";
                break;
            case '>':
                escaped += "&gt;";
                break;
            case '"':
                escaped += "&quot;";
                break;
            case '\'':
                escaped += "&#39;";
                break;
            default:
                escaped += c;
        }
    }
    return escaped;
}

std::string coordinate(double value) {
    if (!std::isfinite(value)) {
        return "0";
    }
    const double rounded = std::round(value * 10) / 10;
    char text[32];
    if (rounded == std::round(rounded)) {
        std::snprintf(text, sizeof text, "%.0f", rounded == 0 ? 0.0 : rounded);
    } else {
        std::snprintf(text, sizeof text, "%.1f", rounded);
    }
    return text;
}

namespace {

std::string attribute(std::string_view name, std::string_view value) {
    return " " + std::string(name) + "=\"" + escape_xml(value) + "\"";
}

std::string class_attribute(std::string_view css_class) {
    return css_class.empty() ? std::string() : attribute("class", css_class);
}

}  // namespace

SvgWriter::SvgWriter(double width, double height, std::string_view css_class,
                     std::string_view label) {
    // No xmlns: inside HTML the parser gives <svg> its namespace, and the page names no URL.
    out_ = "<svg" + class_attribute(css_class) + attribute("width", coordinate(width)) +
           attribute("height", coordinate(height)) +
           attribute("viewBox", "0 0 " + coordinate(width) + " " + coordinate(height)) +
           " role=\"img\"" + attribute("aria-label", label) + ">\n";
}

void SvgWriter::close_element(std::string_view element, std::string_view tooltip) {
    if (tooltip.empty()) {
        out_ += "/>\n";
    } else {
        out_ += "><title>" + escape_xml(tooltip) + "</title></" + std::string(element) + ">\n";
    }
}

void SvgWriter::rect(double x, double y, double width, double height, std::string_view css_class,
                     std::string_view tooltip, std::string_view fill) {
    out_ += "<rect" + class_attribute(css_class) + attribute("x", coordinate(x)) +
            attribute("y", coordinate(y)) + attribute("width", coordinate(width)) +
            attribute("height", coordinate(height));
    if (!fill.empty()) {
        out_ += attribute("fill", fill);
    }
    close_element("rect", tooltip);
}

void SvgWriter::line(double x1, double y1, double x2, double y2, std::string_view css_class) {
    out_ += "<line" + class_attribute(css_class) + attribute("x1", coordinate(x1)) +
            attribute("y1", coordinate(y1)) + attribute("x2", coordinate(x2)) +
            attribute("y2", coordinate(y2)) + "/>\n";
}

void SvgWriter::path(std::string_view commands, std::string_view css_class) {
    out_ += "<path" + class_attribute(css_class) + attribute("d", commands) + "/>\n";
}

void SvgWriter::circle(double cx, double cy, double r, std::string_view css_class,
                       std::string_view tooltip) {
    out_ += "<circle" + class_attribute(css_class) + attribute("cx", coordinate(cx)) +
            attribute("cy", coordinate(cy)) + attribute("r", coordinate(r));
    close_element("circle", tooltip);
}

void SvgWriter::text(double x, double y, std::string_view content, std::string_view css_class,
                     Anchor anchor) {
    out_ += "<text" + class_attribute(css_class) + attribute("x", coordinate(x)) +
            attribute("y", coordinate(y));
    if (anchor != Anchor::start) {
        out_ += attribute("text-anchor", anchor == Anchor::middle ? "middle" : "end");
    }
    out_ += ">" + escape_xml(content) + "</text>\n";
}

void SvgWriter::open_group(std::string_view css_class) {
    out_ += "<g" + class_attribute(css_class) + ">\n";
}

void SvgWriter::close_group() {
    out_ += "</g>\n";
}

std::string SvgWriter::finish() {
    return std::move(out_) + "</svg>\n";
}

}  // namespace spvtune::html
