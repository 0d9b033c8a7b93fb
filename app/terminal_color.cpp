#include "terminal_color.hpp"

#include <cstdlib>
#include <iostream>
#include <unistd.h>

namespace spvtune::app {
namespace {

constexpr std::string_view color_option = "--color";
constexpr char escape = '\x1b';

bool environment_set(const char* name) {
    const char* value = std::getenv(name);
    return value != nullptr && *value != '\0';
}

std::string_view escape_code(Tone tone) {
    switch (tone) {
        case Tone::good:
            return "\x1b[1;32m";  // bold green
        case Tone::warning:
            return "\x1b[33m";  // yellow
        case Tone::bad:
            return "\x1b[1;31m";  // bold red
        case Tone::muted:
            return "\x1b[2m";  // dim
    }
    return "";
}

}  // namespace

void add_color_option(CLI::App& root) {
    root.add_option(std::string(color_option),
                    "Colour statuses and verdicts: auto (on a terminal, unless NO_COLOR is set or "
                    "TERM is dumb), "
                    "always (even in a pipe, and over NO_COLOR) or never (default: auto)")
        ->type_name("WHEN")
        ->check(CLI::IsMember({"auto", "always", "never"}));
}

ColorMode color_mode(const CLI::App& command) {
    const CLI::App* root = &command;
    while (root->get_parent() != nullptr) {
        root = root->get_parent();
    }
    const CLI::Option* option = root->get_option_no_throw(std::string(color_option));
    if (option == nullptr || option->count() == 0) {
        return ColorMode::automatic;
    }
    const std::string value = option->as<std::string>();
    return value == "always"  ? ColorMode::always
           : value == "never" ? ColorMode::never
                              : ColorMode::automatic;
}

Palette Palette::for_stream(ColorMode mode, const std::ostream& stream) {
    if (mode != ColorMode::automatic) {
        return Palette(mode == ColorMode::always);
    }
    int descriptor = -1;
    if (&stream == &std::cout) {
        descriptor = STDOUT_FILENO;
    } else if (&stream == &std::cerr) {
        descriptor = STDERR_FILENO;
    }
    const char* term = std::getenv("TERM");
    const bool dumb = term != nullptr && std::string_view(term) == "dumb";
    return Palette(descriptor >= 0 && ::isatty(descriptor) == 1 && !environment_set("NO_COLOR") &&
                   !dumb);
}

std::string Palette::paint(std::string_view text, Tone tone) const {
    if (!enabled_ || text.empty()) {
        return std::string(text);
    }
    std::string painted(escape_code(tone));
    painted += text;
    painted += "\x1b[0m";
    return painted;
}

std::size_t visible_width(std::string_view text) {
    std::size_t width = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == escape && i + 1 < text.size() && text[i + 1] == '[') {
            // A CSI sequence ends with its final byte, a letter.
            i += 2;
            while (i < text.size() && !(text[i] >= '@' && text[i] <= '~')) {
                ++i;
            }
            continue;
        }
        ++width;
    }
    return width;
}

std::string pad_right(std::string_view text, std::size_t width) {
    std::string padded(text);
    const std::size_t visible = visible_width(text);
    if (visible < width) {
        padded.append(width - visible, ' ');
    }
    return padded;
}

}  // namespace spvtune::app
