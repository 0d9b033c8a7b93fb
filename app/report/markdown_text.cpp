#include "markdown_text.hpp"

#include "html_report/svg_writer.hpp"

namespace spvtune::app {

namespace {

bool is_control(char c) {
    return static_cast<unsigned char>(c) < 0x20 || c == '\x7f';
}

}  // namespace

std::string markdown_text(std::string_view text) {
    // The characters the HTML writers escape become entities, which Markdown leaves alone.
    const std::string html = html::escape_xml(text);
    std::string out;
    out.reserve(html.size());
    for (const char c : html) {
        switch (c) {
            case '\\':
            case '`':
            case '*':
            case '_':
            case '[':
            case ']':
            case '|':
            case '~':
                out += '\\';
                out += c;
                break;
            case '\n':
                out += "<br>";
                break;
            default:
                out += is_control(c) ? ' ' : c;
        }
    }
    return out;
}

std::string markdown_code(std::string_view text) {
    for (const char c : text) {
        if (c == '`' || is_control(c)) {
            return markdown_text(text);
        }
    }
    // Inside a code span nothing is markup: the text is shown exactly as it is.
    return "`" + std::string(text) + "`";
}

}  // namespace spvtune::app
