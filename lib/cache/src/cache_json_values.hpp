#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include <spvtune/cache/cache_document.hpp>
#include <spvtune/tune/tune_entry.hpp>

// Spellings shared by the cache writer and reader; keeping them in one place is what makes
// every file this library writes readable by it.
namespace spvtune::cache::cache_json {

/// Statistics may be NaN or infinite (one sample has no spread); JSON has no such numbers, and
/// nlohmann would write null and lose the value, so they are spelled "nan", "inf", "-inf".
nlohmann::json encode_double(double value);
std::optional<double> decode_double(const nlohmann::json& value) noexcept;

/// A ranked candidate of which a file keeps only the place in the ranking (`runners_up`):
/// 0 samples and NaN times, which statistics_kept() tells from measured statistics.
tune::RankedCandidate runner_up(std::string name, std::size_t index);

/// Candidate-list checksums are written as exactly 16 lower-case hex digits.
std::optional<std::uint64_t> parse_checksum(std::string_view text) noexcept;

/// The document's "tuners" member as the file writes it (serialize_cache, journal records).
nlohmann::json tuners_json(const CacheDocument& document);

/// True when `key_json` is a JSON text; entry keys are the canonical JSON of a tuner key.
bool is_json_text(std::string_view key_json) noexcept;

}  // namespace spvtune::cache::cache_json
