#pragma once

#include <filesystem>
#include <string_view>

#include <spvtune/cache/cache_document.hpp>

namespace spvtune::cache {

/// The full reader behind parse_cache (nlohmann): reads any cache file, of any version, and
/// checks every value, throwing CacheFormatError with the place of the first problem. parse_cache
/// calls it for what parse_cache_fast does not vouch for; both must give the same document for
/// every file the fast reader accepts (tests/cache/cache_readers_agree_test.cpp).
CacheDocument parse_cache_full(std::string_view text, const std::filesystem::path& file);

}  // namespace spvtune::cache
