#pragma once

#include <optional>
#include <string_view>

#include <spvtune/cache/cache_document.hpp>

namespace spvtune::cache {

/// The hot path of parse_cache: reads a valid cache file of a version this build writes or the
/// one before (simdjson, no JSON tree kept). It vouches only for what it can check as strictly as
/// the full reader; for anything else, every invalid file included, it returns nothing and the
/// full reader decides and explains.
std::optional<CacheDocument> parse_cache_fast(std::string_view text);

/// True when `key_json` is the canonical JSON of a tuner key, as nlohmann's dump() writes it.
bool is_canonical_key_json(std::string_view key_json);

}  // namespace spvtune::cache
