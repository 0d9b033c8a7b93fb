#include "glsl/include_search.hpp"

#include <set>
#include <sstream>
#include <system_error>

#include <spvtune/base/regular_file.hpp>

namespace spvtune::problem::detail {
namespace {

namespace fs = std::filesystem;

/// The header an `#include` line names, and whether it is "local" (quoted); nothing for any
/// other line.
std::optional<std::pair<std::string, bool>> include_directive(std::string_view line) {
    const auto skip_blanks = [&line] {
        const auto first = line.find_first_not_of(" \t");
        line.remove_prefix(first == std::string_view::npos ? line.size() : first);
    };
    skip_blanks();
    if (!line.starts_with('#')) {
        return std::nullopt;
    }
    line.remove_prefix(1);
    skip_blanks();
    if (!line.starts_with("include")) {
        return std::nullopt;
    }
    line.remove_prefix(7);
    skip_blanks();
    if (line.empty() || (line[0] != '"' && line[0] != '<')) {
        return std::nullopt;
    }
    const bool local = line[0] == '"';
    const auto close = line.find(local ? '"' : '>', 1);
    if (close == std::string_view::npos) {
        return std::nullopt;
    }
    return std::pair(std::string(line.substr(1, close - 1)), local);
}

}  // namespace

std::optional<std::string> read_glsl_text(const fs::path& path) {
    try {
        auto file = base::read_regular_file(path, largest_glsl_file);
        return file ? std::optional(std::move(file->text)) : std::nullopt;
    } catch (const std::system_error&) {
        return std::nullopt;
    }
}

std::optional<fs::path> find_glsl_include(const std::string& header, const fs::path& includer,
                                          bool local, const std::vector<fs::path>& include_dirs) {
    std::error_code ignored;
    if (local) {
        const fs::path beside = includer.parent_path() / header;
        if (fs::is_regular_file(beside, ignored)) {
            return beside;
        }
    }
    for (const fs::path& dir : include_dirs) {
        if (fs::is_regular_file(dir / header, ignored)) {
            return dir / header;
        }
    }
    return std::nullopt;
}

std::vector<ScannedInclude> scan_glsl_includes(const fs::path& file, const std::string& source,
                                               const std::vector<fs::path>& include_dirs) {
    std::vector<ScannedInclude> found;
    std::set<fs::path> seen;
    // (file, its text) still to scan.
    std::vector<std::pair<fs::path, std::string>> pending = {{file, source}};
    while (!pending.empty()) {
        const auto [includer, text] = std::move(pending.front());
        pending.erase(pending.begin());
        std::istringstream lines(text);
        std::string line;
        while (std::getline(lines, line)) {
            const auto directive = include_directive(line);
            if (!directive) {
                continue;
            }
            const auto path =
                find_glsl_include(directive->first, includer, directive->second, include_dirs);
            std::error_code ignored;
            const fs::path identity = path ? fs::weakly_canonical(*path, ignored) : fs::path();
            if (path && !seen.insert(identity).second) {
                continue;
            }
            ScannedInclude include{directive->first, path ? read_glsl_text(*path) : std::nullopt};
            if (include.text) {
                pending.emplace_back(*path, *include.text);
            }
            found.push_back(std::move(include));
        }
    }
    return found;
}

}  // namespace spvtune::problem::detail
