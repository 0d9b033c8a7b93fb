#include <spvtune/tune/recording.hpp>

namespace spvtune::tune {
namespace {

std::string_view without_trailing_space(std::string_view text) {
    const std::size_t end = text.find_last_not_of(" \t\r\n");
    return end == std::string_view::npos ? std::string_view{} : text.substr(0, end + 1);
}

/// `text` (up to its last entry) with the cache object and the file closed, if that is a cache.
std::optional<std::string> closed(std::string_view text) {
    text = without_trailing_space(text);
    if (text.ends_with(',')) {
        text.remove_suffix(1);
    }
    std::string out(text);
    out += "\n}\n}\n";
    // Not parse(): a file that is no cache must cost no exception, and most calls are not.
    const nlohmann::json json = nlohmann::json::parse(out, nullptr, /*allow_exceptions=*/false);
    const bool cache = json.is_object() && json.contains("tune_params") && json.contains("cache") &&
                       json["cache"].is_object();
    return cache ? std::optional(std::move(out)) : std::nullopt;
}

}  // namespace

std::optional<ClosedCache> close_unfinished_kernel_tuner_cache(std::string_view text) {
    if (text.find("\"cache\"") == std::string_view::npos) {
        return std::nullopt;
    }
    if (std::optional<std::string> whole = closed(text)) {
        return ClosedCache{std::move(*whole), 0};
    }
    // Kernel Tuner writes an entry a line: a stop in the middle of one leaves part of a line.
    const std::string_view written = without_trailing_space(text);
    const std::size_t line = written.find_last_of('\n');
    if (line == std::string_view::npos) {
        return std::nullopt;
    }
    if (std::optional<std::string> kept = closed(written.substr(0, line))) {
        return ClosedCache{std::move(*kept), written.size() - line - 1};
    }
    return std::nullopt;
}

}  // namespace spvtune::tune
