#include <algorithm>
#include <cerrno>
#include <chrono>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include <spvtune/base/digest.hpp>
#include <spvtune/base/foreign_link.hpp>
#include <spvtune/base/posix_file.hpp>
#include <spvtune/base/stale_files.hpp>
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

/// An entry's text, when it is a regular file: never through a symbolic link, whose target may
/// be any file (a FIFO would block the read).
std::optional<std::string> read_entry_text(const fs::path& entry) {
    base::Descriptor fd(::open(entry.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK));
    struct stat info {};
    if (fd.get() < 0 || ::fstat(fd.get(), &info) != 0 || !S_ISREG(info.st_mode)) {
        return std::nullopt;  // a miss: compiled again, and the entry (the link itself) replaced
    }
    std::string text;
    char buffer[65536];
    for (;;) {
        const ssize_t got = ::read(fd.get(), buffer, sizeof buffer);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got < 0) {
            return std::nullopt;
        }
        if (got == 0) {
            return text;
        }
        text.append(buffer, static_cast<std::size_t>(got));
    }
}

/// The entry's SPIR-V when it is whole, was made by this glslang and every include it records
/// still has the text it was compiled with; nothing otherwise.
std::optional<std::vector<std::uint32_t>> read_entry(const fs::path& entry) {
    const auto text = read_entry_text(entry);
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

}  // namespace

GlslCache::GlslCache(std::optional<fs::path> directory) : directory_(std::move(directory)) {
    // A linked folder is foreign: entries written or temporaries removed there would change
    // whatever folder the link names.
    if (directory_ && base::is_symbolic_link(*directory_)) {
        directory_.reset();
    }
    if (directory_) {
        // Temporaries are named "<entry>.json.tmp-<pid>-<n>" by base::replace_file_atomically.
        base::remove_stale_files(*directory_, ".json.tmp-", stale_after);
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
