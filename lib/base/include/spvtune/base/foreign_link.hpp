#pragma once

#include <filesystem>
#include <string>

// The cache directory may come from a CI artifact or be shared between jobs, so a symbolic link
// spvtune finds inside it is foreign: it may point anywhere, and writing, truncating, creating
// or deleting through it would damage a file outside the cache. Files there are opened with
// O_NOFOLLOW (and created with O_EXCL); a link found is reported with these.
namespace spvtune::base {

/// Whether `path` itself is a symbolic link; false when it is anything else or cannot be seen.
bool is_symbolic_link(const std::filesystem::path& path) noexcept;

/// "<path> is a symbolic link, which spvtune does not follow inside its cache directory".
std::string foreign_link_message(const std::filesystem::path& path);

/// Throws std::system_error (ELOOP) with foreign_link_message(path).
[[noreturn]] void throw_foreign_link(const std::filesystem::path& path);

}  // namespace spvtune::base
