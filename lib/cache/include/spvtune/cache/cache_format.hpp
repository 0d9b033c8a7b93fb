#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

#include <spvtune/cache/cache_document.hpp>

namespace spvtune::cache {

/// A cache file that is not valid JSON or does not have the shape of a cache.
///
/// `what()` reads "FILE: POINTER: expected ..., found ..." so a user can go straight to the
/// offending place; the parts are kept for callers that format it themselves.
class CacheFormatError : public std::runtime_error {
  public:
    CacheFormatError(std::filesystem::path file, std::string pointer, std::string problem);

    const std::filesystem::path& file() const noexcept { return file_; }
    /// JSON pointer (RFC 6901) of the offending value; "" for the whole document.
    const std::string& pointer() const noexcept { return pointer_; }
    /// What was expected there and what was found.
    const std::string& problem() const noexcept { return problem_; }

  private:
    std::filesystem::path file_;
    std::string pointer_;
    std::string problem_;
};

/// The file's text for `document`: sorted keys, two-space indent, shortest round-trip numbers,
/// a trailing newline. Equal documents always give equal bytes, so re-saving an unchanged cache
/// is byte-identical and a new entry shows as a small diff.
std::string serialize_cache(const CacheDocument& document);

/// Parses and validates a cache file's text; `file` only names it in errors.
///
/// A document with a newer schema version is read as far as it matches this version's shape
/// (unknown members are ignored there); at the current version unknown members are errors,
/// so typos in hand-edited files are caught. Throws CacheFormatError.
CacheDocument parse_cache(std::string_view text, const std::filesystem::path& file);

}  // namespace spvtune::cache
