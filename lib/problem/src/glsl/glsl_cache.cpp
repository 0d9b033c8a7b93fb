#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include <spvtune/base/digest.hpp>
#include <spvtune/cache/atomic_write.hpp>
#include <spvtune/problem/glsl_cache.hpp>

namespace spvtune::problem {
namespace {

namespace fs = std::filesystem;

// Bumped when the entry's layout changes, so old entries are recompiled rather than misread.
constexpr int entry_format = 1;

std::string digest_of(std::string_view text) {
    return base::to_hex(base::Fnv1a().add(text).value());
}

std::string digest_of(const std::vector<std::uint32_t>& words) {
    base::Fnv1a digest;
    for (const std::uint32_t word : words) {
        digest.add(static_cast<std::uint64_t>(word));
    }
    return base::to_hex(digest.value());
}

std::optional<std::string> read_text(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return std::nullopt;
    }
    std::ostringstream text;
    text << in.rdbuf();
    return in.bad() ? std::nullopt : std::optional(text.str());
}

fs::path absolute_of(const fs::path& path) {
    std::error_code ignored;
    const fs::path canonical = fs::weakly_canonical(path, ignored);
    return canonical.empty() ? path : canonical;
}

/// The entry's SPIR-V when it is whole, was made by this glslang and every include it records
/// still has the text it was compiled with; nothing otherwise.
std::optional<std::vector<std::uint32_t>> read_entry(const fs::path& entry) {
    const auto text = read_text(entry);
    if (!text) {
        return std::nullopt;
    }
    try {
        const auto json = nlohmann::json::parse(*text);
        if (json.at("format").get<int>() != entry_format ||
            json.at("glslang").get<std::string>() != glslang_version()) {
            return std::nullopt;
        }
        for (const auto& include : json.at("includes")) {
            const auto now = read_text(include.at("path").get<std::string>());
            if (!now || digest_of(*now) != include.at("digest").get<std::string>()) {
                return std::nullopt;
            }
        }
        auto words = json.at("words").get<std::vector<std::uint32_t>>();
        if (words.empty() || digest_of(words) != json.at("digest").get<std::string>()) {
            return std::nullopt;
        }
        return words;
    } catch (const nlohmann::json::exception&) {
        return std::nullopt;  // corrupt: compiled again and replaced
    }
}

void write_entry(const fs::path& entry, const GlslOutput& output) {
    nlohmann::json includes = nlohmann::json::array();
    for (const GlslInclude& include : output.includes) {
        includes.push_back(
            {{"path", absolute_of(include.path).string()}, {"digest", digest_of(include.text)}});
    }
    const nlohmann::json json = {{"format", entry_format},
                                 {"glslang", glslang_version()},
                                 {"includes", includes},
                                 {"digest", digest_of(output.words)},
                                 {"words", output.words}};
    try {
        fs::create_directories(entry.parent_path());
        cache::write_file_atomically(entry, json.dump());
    } catch (const std::exception&) {
        // A cache that cannot be written (read-only, full) costs a compile next time, no more.
    }
}

/// A temporary older than this was left by a process that died while writing it: a live writer
/// renames its temporary within moments of creating it.
constexpr auto stale_after = std::chrono::minutes(10);

/// Removes the temporaries of entries (named "<entry>.json.tmp-<pid>-<n>" by
/// base::replace_file_atomically) that no live writer can still be renaming.
void remove_stale_temporaries(const fs::path& directory) {
    const auto now = fs::file_time_type::clock::now();
    std::error_code error;
    for (fs::directory_iterator it(directory, error), end; !error && it != end;
         it.increment(error)) {
        if (it->path().filename().string().find(".json.tmp-") == std::string::npos) {
            continue;
        }
        std::error_code ignored;
        const auto written = fs::last_write_time(it->path(), ignored);
        if (!ignored && now - written > stale_after) {
            fs::remove(it->path(), ignored);
        }
    }
}

}  // namespace

GlslCache::GlslCache(std::optional<fs::path> directory) : directory_(std::move(directory)) {
    if (directory_) {
        remove_stale_temporaries(*directory_);
    }
}

fs::path GlslCache::entry_path(const GlslRequest& request) const {
    base::Fnv1a digest;
    digest.add_field(glslang_version());
    digest.add(static_cast<std::uint64_t>(request.target));
    digest.add_field(request.source);
    digest.add_field(absolute_of(request.file).parent_path().string());
    digest.add(static_cast<std::uint64_t>(request.include_dirs.size()));
    for (const fs::path& dir : request.include_dirs) {
        digest.add_field(absolute_of(dir).string());
    }
    std::vector<GlslDefine> defines = request.defines;
    std::sort(defines.begin(), defines.end(),
              [](const GlslDefine& a, const GlslDefine& b) { return a.name < b.name; });
    digest.add(static_cast<std::uint64_t>(defines.size()));
    for (const GlslDefine& define : defines) {
        digest.add_field(define.name).add_field(define.value);
    }
    return directory_.value() / (base::to_hex(digest.value()) + ".json");
}

GlslOutput GlslCache::compile(const GlslRequest& request) const {
    if (!directory_) {
        return compile_glsl(request);
    }
    const fs::path entry = entry_path(request);
    if (auto words = read_entry(entry)) {
        GlslOutput output;
        output.ok = true;
        output.words = std::move(*words);
        return output;
    }
    GlslOutput output = compile_glsl(request);
    if (output.ok) {
        write_entry(entry, output);
    }
    return output;
}

}  // namespace spvtune::problem
