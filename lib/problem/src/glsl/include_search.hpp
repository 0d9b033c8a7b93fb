#pragma once

// Where a GLSL `#include` is found, shared by the compiler (which reads what glslang asks for)
// and the per-key identity (which must know a source's includes before any key compiles it).

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace spvtune::problem::detail {

/// Far beyond any real GLSL source or cache entry: a larger file (or one that never ends, such as
/// /dev/zero) is not read into memory.
constexpr std::uintmax_t largest_glsl_file = std::uintmax_t{64} << 20;

/// The text of a GLSL source or include: a regular file of at most largest_glsl_file bytes,
/// read without blocking (base::read_regular_file); nothing when it cannot be read.
std::optional<std::string> read_glsl_text(const std::filesystem::path& path);

/// The file `#include "header"` (local) or `#include <header>` names, found as C compilers find
/// it: a local one next to the including file first, then each include directory in order.
std::optional<std::filesystem::path> find_glsl_include(
    const std::string& header, const std::filesystem::path& includer, bool local,
    const std::vector<std::filesystem::path>& include_dirs);

/// A file an `#include` directive of the source or of a file it includes names, found or not.
struct ScannedInclude {
    std::string header;  ///< as written
    std::optional<std::string> text;
};

/// Every `#include` in `source` (the text of `file`) and, recursively, in what they include,
/// each file once, in the order first met. Directives in any `#if` branch count: this is for
/// identities, where naming a file that a compile would skip costs only a needless change.
std::vector<ScannedInclude> scan_glsl_includes(
    const std::filesystem::path& file, const std::string& source,
    const std::vector<std::filesystem::path>& include_dirs);

}  // namespace spvtune::problem::detail
