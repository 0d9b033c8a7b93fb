#include <cctype>
#include <string>
#include <string_view>

#include "html_sections.hpp"

namespace spvtune::app {
namespace {

bool name_character(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-';
}

/// Whether an option's name (`--min-sample-ms`) starts at `at`: two hyphens and a letter, not
/// inside a word.
bool option_at(std::string_view text, std::size_t at) {
    return at + 2 < text.size() && text[at] == '-' && text[at + 1] == '-' &&
           std::isalpha(static_cast<unsigned char>(text[at + 2])) != 0 &&
           (at == 0 || !name_character(text[at - 1]));
}

}  // namespace

std::string html_prose(std::string_view text) {
    std::string out;
    std::size_t plain = 0;  // where the text not yet written starts
    for (std::size_t at = 0; at < text.size(); ++at) {
        if (!option_at(text, at)) {
            continue;
        }
        std::size_t end = at + 2;
        while (end < text.size() && name_character(text[end])) {
            ++end;
        }
        while (text[end - 1] == '-') {
            --end;  // a dash after the name is the sentence's
        }
        out += html_text(text.substr(plain, at - plain)) + "<code class=\"option\">" +
               html_text(text.substr(at, end - at)) + "</code>";
        plain = end;
        at = end - 1;
    }
    return out + html_text(text.substr(plain));
}

}  // namespace spvtune::app
