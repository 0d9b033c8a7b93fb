#include <array>

#include <spvtune/tune/recording.hpp>

namespace spvtune::tune {
namespace {

std::string_view without_trailing_space(std::string_view text) {
    const std::size_t end = text.find_last_not_of(" \t\r\n");
    return end == std::string_view::npos ? std::string_view{} : text.substr(0, end + 1);
}

/// `text` (up to an entry) closed as a cache file, if that makes one: the cache object and the
/// file, or the file alone (a stop between the two closing braces).
std::optional<nlohmann::json> closed(std::string_view text) {
    text = without_trailing_space(text);
    if (text.ends_with(',')) {
        text.remove_suffix(1);
    }
    for (const std::string_view closing : std::array<std::string_view, 2>{"\n}\n}\n", "\n}\n"}) {
        std::string candidate(text);
        candidate += closing;
        // Not parse(): a closing that does not fit must cost no exception.
        nlohmann::json json = nlohmann::json::parse(candidate, nullptr, /*allow_exceptions=*/false);
        if (json.is_object() && json.contains("tune_params") && json.contains("cache") &&
            json["cache"].is_object()) {
            return json;
        }
    }
    return std::nullopt;
}

/// The unfinished cache `text` holds, given that parsing it failed at `failed_at`.
std::optional<RecordingText> unfinished_cache(std::string_view text, std::size_t failed_at) {
    // Only text that names a cache and ends too soon (the parse ran past its last byte): damage
    // anywhere else is not a stop.
    if (failed_at <= text.size() || text.find("\"cache\"") == std::string_view::npos) {
        return std::nullopt;
    }
    if (std::optional<nlohmann::json> whole = closed(text)) {
        return RecordingText{std::move(*whole), true, 0};
    }
    // Kernel Tuner writes an entry a line: a stop in the middle of one leaves part of a line.
    const std::string_view written = without_trailing_space(text);
    const std::size_t line = written.find_last_of('\n');
    if (line == std::string_view::npos) {
        return std::nullopt;
    }
    if (std::optional<nlohmann::json> kept = closed(written.substr(0, line))) {
        return RecordingText{std::move(*kept), true, written.size() - line - 1};
    }
    return std::nullopt;
}

}  // namespace

RecordingText parse_recording_text(std::string_view text) {
    try {
        return {nlohmann::json::parse(text), false, 0};
    } catch (const nlohmann::json::parse_error& error) {
        if (std::optional<RecordingText> cache = unfinished_cache(text, error.byte)) {
            return std::move(*cache);
        }
        throw;
    }
}

}  // namespace spvtune::tune
