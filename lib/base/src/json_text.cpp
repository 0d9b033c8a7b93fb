#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <spvtune/base/json_text.hpp>

namespace spvtune::base {
namespace {

bool number_char(char c) {
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

}  // namespace

std::optional<JsonTextFault> check_json_text(std::string_view text, std::size_t max_depth) {
    std::size_t depth = 0;
    bool in_string = false;
    for (std::size_t at = 0; at < text.size(); ++at) {
        const char c = text[at];
        if (c == '\0') {
            return JsonTextFault{at, "a NUL byte; expected JSON text, not binary data"};
        }
        if (in_string) {
            if (c == '\\') {
                ++at;  // the escaped character cannot end the string
            } else if (c == '"') {
                in_string = false;
            }
            continue;
        }
        if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > max_depth) {
                return JsonTextFault{at, "nested deeper than " + std::to_string(max_depth) +
                                             " levels of objects and arrays; expected at most " +
                                             std::to_string(max_depth)};
            }
        } else if (c == ']' || c == '}') {
            depth -= depth > 0 ? 1 : 0;
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            std::size_t end = at;
            while (end < text.size() && number_char(text[end])) {
                ++end;
            }
            const std::string number(text.substr(at, end - at));
            if (std::isinf(std::strtod(number.c_str(), nullptr))) {
                return JsonTextFault{at, "number " + number +
                                             " is out of range; expected a magnitude below "
                                             "1.8e308 (a double)"};
            }
            at = end - 1;
        }
    }
    return std::nullopt;
}

TextPosition position_in(std::string_view text, std::size_t offset) {
    TextPosition position;
    for (std::size_t i = 0; i < std::min(offset, text.size()); ++i) {
        if (text[i] == '\n') {
            ++position.line;
            position.column = 1;
        } else if ((static_cast<unsigned char>(text[i]) & 0xC0U) != 0x80U) {
            ++position.column;
        }
    }
    return position;
}

void JsonPathTracker::element_done() {
    if (!frames_.empty() && !frames_.back().object) {
        ++frames_.back().index;
    }
}

void JsonPathTracker::start_container(bool object) {
    frames_.push_back(Frame{object, {}, {}, 0});
}

void JsonPathTracker::end_container() {
    if (!frames_.empty()) {
        frames_.pop_back();
    }
    element_done();
}

void JsonPathTracker::end_value() {
    element_done();
}

bool JsonPathTracker::key(const std::string& name) {
    if (frames_.empty() || !frames_.back().object) {
        return true;
    }
    Frame& frame = frames_.back();
    frame.key = name;
    return frame.keys.insert(name).second;
}

std::string JsonPathTracker::pointer() const {
    std::string pointer;
    // The innermost frame is the container being filled; the frames above it name where it is.
    for (const Frame& frame : frames_) {
        pointer += '/';
        if (!frame.object) {
            pointer += std::to_string(frame.index);
            continue;
        }
        for (const char c : frame.key) {
            pointer += c == '~'   ? std::string("~0")
                       : c == '/' ? std::string("~1")
                                  : std::string(1, c);
        }
    }
    return pointer;
}

}  // namespace spvtune::base
