#include "cache_json_values.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace spvtune::cache::cache_json {

std::string_view to_string(tune::TimingMethod method) noexcept {
    switch (method) {
        case tune::TimingMethod::device_timestamps:
            return "device_timestamps";
        case tune::TimingMethod::host_clock:
            return "host_clock";
    }
    return "device_timestamps";
}

std::optional<tune::TimingMethod> timing_method_from(std::string_view text) noexcept {
    if (text == "device_timestamps") {
        return tune::TimingMethod::device_timestamps;
    }
    if (text == "host_clock") {
        return tune::TimingMethod::host_clock;
    }
    return std::nullopt;
}

std::string_view to_string(tune::FailureKind kind) noexcept {
    switch (kind) {
        case tune::FailureKind::error:
            return "error";
        case tune::FailureKind::wrong_output:
            return "wrong_output";
        case tune::FailureKind::skipped:
            return "skipped";
    }
    return "error";
}

std::optional<tune::FailureKind> failure_kind_from(std::string_view text) noexcept {
    if (text == "error") {
        return tune::FailureKind::error;
    }
    if (text == "wrong_output") {
        return tune::FailureKind::wrong_output;
    }
    if (text == "skipped") {
        return tune::FailureKind::skipped;
    }
    return std::nullopt;
}

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
