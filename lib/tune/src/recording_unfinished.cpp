#include <array>

#include <spvtune/tune/recording.hpp>

namespace spvtune::tune {
namespace {

std::string_view without_trailing_space(std::string_view text) {
    const std::size_t end = text.find_last_not_of(" \t\r\n");
    return end == std::string_view::npos ? std::string_view{} : text.substr(0, end + 1);
}

/// Follows a parse without building anything, to learn where it failed.
class ParseEnd final : public nlohmann::json_sax<nlohmann::json> {
  public:
    /// Whether the text parsed no further than its end: all it lacks is what would follow.
    static bool too_soon(std::string_view text) {
        ParseEnd end;
        nlohmann::json::sax_parse(text.begin(), text.end(), &end);
        return end.failed_at_ > text.size();
    }

    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override { return true; }
    bool key(string_t&) override { return true; }
    bool end_object() override { return true; }
    bool start_array(std::size_t) override { return true; }
    bool end_array() override { return true; }
    bool parse_error(std::size_t position, const std::string&,
                     const nlohmann::detail::exception&) override {
        failed_at_ = position;  // past the last byte when the input ended too soon
        return false;
    }

  private:
    std::size_t failed_at_ = 0;
};

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

}  // namespace

std::optional<ClosedCache> close_unfinished_kernel_tuner_cache(std::string_view text) {
    // Only text that names a cache and that ends too soon: damage anywhere else is not a stop.
    if (text.find("\"cache\"") == std::string_view::npos || !ParseEnd::too_soon(text)) {
        return std::nullopt;
    }
    if (std::optional<nlohmann::json> whole = closed(text)) {
        return ClosedCache{std::move(*whole), 0};
    }
    // Kernel Tuner writes an entry a line: a stop in the middle of one leaves part of a line.
    const std::string_view written = without_trailing_space(text);
    const std::size_t line = written.find_last_of('\n');
    if (line == std::string_view::npos) {
        return std::nullopt;
    }
    if (std::optional<nlohmann::json> kept = closed(written.substr(0, line))) {
        return ClosedCache{std::move(*kept), written.size() - line - 1};
    }
    return std::nullopt;
}

}  // namespace spvtune::tune
