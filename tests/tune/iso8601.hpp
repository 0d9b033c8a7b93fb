#pragma once

#include <chrono>
#include <ctime>
#include <optional>
#include <string>

namespace fakes {

/// Reads "2026-11-29T19:30:00Z" back, or nullopt when the text is not exactly that form; tests
/// compare the result with the clock, which checks every field is where the format says.
inline std::optional<std::chrono::sys_seconds> parse_iso8601(const std::string& text) {
    std::tm utc{};
    const char* end = ::strptime(text.c_str(), "%Y-%m-%dT%H:%M:%SZ", &utc);
    if (end == nullptr || *end != '\0' || text.size() != 20) {
        return std::nullopt;
    }
    return std::chrono::sys_seconds(std::chrono::seconds(::timegm(&utc)));
}

}  // namespace fakes
