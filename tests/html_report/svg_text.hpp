#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace spvtune::test {

inline std::size_t occurrences(std::string_view text, std::string_view part) {
    std::size_t count = 0;
    for (std::size_t at = text.find(part); at != std::string_view::npos;
         at = text.find(part, at + part.size())) {
        ++count;
    }
    return count;
}

/// The contents of every <text> element whose class attribute starts with `css_class`, in order.
inline std::vector<std::string> texts_of_class(std::string_view svg, std::string_view css_class) {
    std::vector<std::string> found;
    const std::string opening = "<text class=\"" + std::string(css_class);
    for (std::size_t at = svg.find(opening); at != std::string_view::npos;
         at = svg.find(opening, at + 1)) {
        const std::size_t start = svg.find('>', at) + 1;
        found.emplace_back(svg.substr(start, svg.find("</text>", start) - start));
    }
    return found;
}

}  // namespace spvtune::test
