#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <mutex>
#include <optional>
#include <set>
#include <system_error>
#include <variant>

#include <nlohmann/json.hpp>

#include <spvtune/base/digest.hpp>
#include <spvtune/base/foreign_link.hpp>
#include <spvtune/base/regular_file.hpp>
#include <spvtune/base/stale_files.hpp>
#include <spvtune/cache/atomic_write.hpp>
#include <spvtune/cache/cache_warning.hpp>
#include <spvtune/problem/glsl_cache.hpp>

#include "glsl/include_search.hpp"

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

fs::path absolute_of(const fs::path& path) {
    std::error_code ignored;
    const fs::path canonical = fs::weakly_canonical(path, ignored);
    return canonical.empty() ? path : canonical;
}

/// Why an entry was not used: `damage` is said in a warning (an entry no spvtune wrote, or
/// one that names files no compile reads); a plain miss (no entry, another glslang, an include
/// since edited or removed) is not.
struct Miss {
    std::string damage;
};

/// `json` as SPIR-V words when it is a list of integers that fit 32 bits.
std::optional<std::vector<std::uint32_t>> spirv_words(const nlohmann::json& json) {
    if (!json.is_array()) {
        return std::nullopt;
    }
    std::vector<std::uint32_t> words;
    words.reserve(json.size());
    for (const nlohmann::json& word : json) {
        if (!word.is_number_unsigned() ||
            word.get<std::uint64_t>() > std::numeric_limits<std::uint32_t>::max()) {
            return std::nullopt;
        }
        words.push_back(static_cast<std::uint32_t>(word.get<std::uint64_t>()));
    }
    return words;
}

/// The entry's SPIR-V when it is whole, was made by this glslang and every include it records
/// still has the text it was compiled with; why not otherwise. The entry and its includes are
/// read only as regular files of at most largest_glsl_file bytes, never blocking (a FIFO named
/// there would wait for a writer forever); the entry itself never through a symbolic link,
/// whose target may be any file.
std::variant<std::vector<std::uint32_t>, Miss> read_entry(const fs::path& entry) {
    std::optional<base::RegularFile> file;
    try {
        file = base::read_regular_file(entry, detail::largest_glsl_file, base::LinkPolicy::refuse);
    } catch (const std::system_error& error) {
        return Miss{error.what()};
    }
    if (!file) {
        return Miss{};
    }
    try {
        const auto json = nlohmann::json::parse(file->text);
        // Compared as JSON, and the words read one by one: nlohmann's get<> casts a float to
        // an integer type, undefined beyond its range, and an entry is untrusted input.
        if (json.at("format") != entry_format ||
            json.at("glslang").get<std::string>() != glslang_version()) {
            return Miss{};
        }
        for (const auto& include : json.at("includes")) {
            const fs::path path = include.at("path").get<std::string>();
            std::optional<base::RegularFile> now;
            try {
                now = base::read_regular_file(path, detail::largest_glsl_file);
            } catch (const std::system_error& error) {
                return Miss{"an include it records: " + std::string(error.what())};
            }
            if (!now || digest_of(now->text) != include.at("digest").get<std::string>()) {
                return Miss{};
            }
        }
        const std::optional<std::vector<std::uint32_t>> words = spirv_words(json.at("words"));
        if (!words) {
            return Miss{"its SPIR-V is not a list of 32-bit words"};
        }
        if (words->empty() || digest_of(*words) != json.at("digest").get<std::string>()) {
            return Miss{"its SPIR-V does not match its digest"};
        }
        return *words;
    } catch (const nlohmann::json::exception& error) {
        return Miss{error.what()};
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

struct GlslCache::Warned {
    std::mutex mutex;
    std::set<fs::path> entries;
};

GlslCache::GlslCache(std::optional<fs::path> directory,
                     std::function<void(const std::string&)> warn)
    : directory_(std::move(directory)),
      warn_(std::move(warn)),
      warned_(std::make_shared<Warned>()) {
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
    if (!request.preamble.empty()) {  // entries without one keep their names
        digest.add_field("preamble").add_field(request.preamble);
    }
    return directory_.value() / (base::to_hex(digest.value()) + ".json");
}

GlslOutput GlslCache::compile(const GlslRequest& request) const {
    if (!directory_) {
        return compile_glsl(request);
    }
    const fs::path entry = entry_path(request);
    auto read = read_entry(entry);
    if (auto* words = std::get_if<std::vector<std::uint32_t>>(&read)) {
        GlslOutput output;
        output.ok = true;
        output.words = std::move(*words);
        return output;
    }
    if (const std::string& damage = std::get<Miss>(read).damage; !damage.empty()) {
        warn_damaged(entry, damage);
    }
    GlslOutput output = compile_glsl(request);
    if (output.ok) {
        write_entry(entry, output);
    }
    return output;
}

void GlslCache::warn_damaged(const fs::path& entry, const std::string& damage) const {
    {
        // Once per entry: one that cannot be replaced (a directory) is met again and again.
        const std::lock_guard lock(warned_->mutex);
        if (!warned_->entries.insert(entry).second) {
            return;
        }
    }
    const std::string message = "cannot use GLSL cache entry " + entry.string() + " (" + damage +
                                "); compiled again and replaced";
    if (warn_) {
        warn_(message);
    } else {
        cache::warn_to_stderr(message);
    }
}

}  // namespace spvtune::problem
