#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include <spvtune/tune/tune_entry.hpp>

// Spellings shared by the cache writer and reader; keeping them in one place is what makes
// every file this library writes readable by it.
namespace spvtune::cache::cache_json {

/// Statistics may be NaN or infinite (one sample has no spread); JSON has no such numbers, and
/// nlohmann would write null and lose the value, so they are spelled "nan", "inf", "-inf".
nlohmann::json encode_double(double value);
std::optional<double> decode_double(const nlohmann::json& value) noexcept;

/// Candidate-list checksums are written as exactly 16 lower-case hex digits.
std::optional<std::uint64_t> parse_checksum(std::string_view text) noexcept;

/// True when `key_json` is a JSON text; entry keys are the canonical JSON of a tuner key.
bool is_json_text(std::string_view key_json) noexcept;

}  // namespace spvtune::cache::cache_json
