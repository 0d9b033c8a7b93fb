#include "cache_json_values.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace spvtune::cache::cache_json {

nlohmann::json encode_double(double value) {
    if (std::isnan(value)) {
        return "nan";
    }
    if (std::isinf(value)) {
        return value > 0 ? "inf" : "-inf";
    }
    return value;
}

std::optional<double> decode_double(const nlohmann::json& value) noexcept {
    if (value.is_number()) {
        return value.get<double>();
    }
    if (value.is_string()) {
        const auto& text = value.get_ref<const std::string&>();
        if (text == "nan") {
            return std::numeric_limits<double>::quiet_NaN();
        }
        if (text == "inf") {
            return std::numeric_limits<double>::infinity();
        }
        if (text == "-inf") {
            return -std::numeric_limits<double>::infinity();
        }
    }
    return std::nullopt;
}

tune::RankedCandidate runner_up(std::string name, std::size_t index) {
    constexpr double unknown = std::numeric_limits<double>::quiet_NaN();
    tune::RankedCandidate ranked;
    ranked.name = std::move(name);
    ranked.index = index;
    ranked.statistics = {0, unknown, unknown, unknown, unknown, unknown, unknown};
    return ranked;
}

std::optional<std::uint64_t> parse_checksum(std::string_view text) noexcept {
    if (text.size() != 16) {
        return std::nullopt;
    }
    std::uint64_t value = 0;
    for (char c : text) {
        unsigned digit = 0;
        if (c >= '0' && c <= '9') {
            digit = static_cast<unsigned>(c - '0');
        } else if (c >= 'a' && c <= 'f') {
            digit = static_cast<unsigned>(c - 'a' + 10);
        } else {
            return std::nullopt;
        }
        value = (value << 4) | digit;
    }
    return value;
}

bool is_json_text(std::string_view key_json) noexcept {
    return nlohmann::json::accept(key_json);
}

}  // namespace spvtune::cache::cache_json
