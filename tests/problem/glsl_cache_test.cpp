// The disk cache of compiled GLSL: a second request with the same inputs does not run glslang
// (glsl_compile_count, not timing), any change to the inputs does, and a corrupt entry is
// compiled again and replaced.

#include <chrono>

#include <doctest/doctest.h>

#include <spvtune/problem/glsl_cache.hpp>

#include "cache/temp_directory.hpp"

namespace glsl_cache_test {

using namespace spvtune::problem;
using spvtune::tune::testing::read_bytes;
using spvtune::tune::testing::TempDirectory;
using spvtune::tune::testing::write_bytes;
namespace fs = std::filesystem;

namespace {

struct Sources {
    TempDirectory dir;
    fs::path file = dir.path() / "double.comp";
    fs::path include = dir.path() / "factor.glsl";
    Sources() { write_bytes(include, "#define FACTOR 2.0\n"); }

    GlslRequest request(std::string wg = "64") const {
        return {file,
                "#version 450\n#include \"factor.glsl\"\nlayout(local_size_x = WG_SIZE) in;\n"
                "layout(std430, binding = 0) buffer Data { float data[]; };\n"
                "void main() { data[gl_GlobalInvocationID.x] *= FACTOR; }\n",
                {{"WG_SIZE", std::move(wg)}},
                {},
                GlslTarget::vulkan1_1,
                ""};
    }
};

/// Runs `cache.compile(request)`: whether it ran glslang, and the output.
std::pair<bool, GlslOutput> compile_counted(const GlslCache& cache, const GlslRequest& request) {
    const auto before = glsl_compile_count();
    GlslOutput output = cache.compile(request);
    return {glsl_compile_count() != before, std::move(output)};
}

}  // namespace

TEST_CASE("a cached GLSL compile is not run again, and gives the same SPIR-V") {
    const Sources sources;
    TempDirectory cache_dir;
    const GlslCache cache(cache_dir.path() / "glsl");
    const auto [compiled, first] = compile_counted(cache, sources.request());
    REQUIRE_MESSAGE(first.ok, first.errors);
    CHECK(compiled);
    CHECK(fs::exists(cache.entry_path(sources.request())));
    CHECK(cache.entry_path(sources.request()).parent_path() == cache_dir.path() / "glsl");

    const auto [again, second] = compile_counted(cache, sources.request());
    CHECK_FALSE(again);
    CHECK(second.ok);
    CHECK(second.words == first.words);
    // Another process reads the same entry.
    CHECK_FALSE(compile_counted(GlslCache(cache_dir.path() / "glsl"), sources.request()).first);
}

TEST_CASE("another define, source or included text misses the cache") {
    const Sources sources;
    TempDirectory cache_dir;
    const GlslCache cache(cache_dir.path());
    REQUIRE(compile_counted(cache, sources.request()).second.ok);

    CHECK(compile_counted(cache, sources.request("128")).first);
    GlslRequest edited = sources.request();
    edited.source += "// an edit\n";
    CHECK(compile_counted(cache, edited).first);
    GlslRequest target = sources.request();
    target.target = GlslTarget::vulkan1_2;
    CHECK(compile_counted(cache, target).first);

    write_bytes(sources.include, "#define FACTOR 3.0\n");
    const auto [recompiled, output] = compile_counted(cache, sources.request());
    CHECK(recompiled);
    CHECK(output.ok);
    CHECK_FALSE(compile_counted(cache, sources.request()).first);  // the new entry is kept
}

TEST_CASE("a corrupt cache entry is compiled again and replaced") {
    const Sources sources;
    TempDirectory cache_dir;
    const GlslCache cache(cache_dir.path());
    const GlslOutput good = cache.compile(sources.request());
    REQUIRE(good.ok);
    const fs::path entry = cache.entry_path(sources.request());
    const std::string whole = read_bytes(entry);
    for (const std::string& bad :
         {whole.substr(0, whole.size() / 2), std::string("not json"), std::string("{}")}) {
        write_bytes(entry, bad);
        const auto [recompiled, output] = compile_counted(cache, sources.request());
        CHECK(recompiled);
        CHECK(output.words == good.words);
        CHECK(read_bytes(entry) == whole);
    }
    // A changed word no longer matches the recorded digest.
    std::string flipped = whole;
    const auto words = flipped.find("\"words\":[") + 9;
    flipped[words] = flipped[words] == '1' ? '2' : '1';
    write_bytes(entry, flipped);
    CHECK(compile_counted(cache, sources.request()).first);
}

TEST_CASE("an entry's numbers out of range are a corrupt entry, not a cast of a huge float") {
    const Sources sources;
    TempDirectory cache_dir;
    const GlslOutput good = GlslCache(cache_dir.path()).compile(sources.request());
    REQUIRE(good.ok);
    const fs::path entry = GlslCache(cache_dir.path()).entry_path(sources.request());
    const std::string whole = read_bytes(entry);
    // Found by fuzz_glsl_cache: a float where a word or the format is, which nlohmann's get<>
    // would cast (undefined beyond the type's range), or an integer no 32-bit word holds.
    const auto words = whole.find("\"words\":[") + 9;
    const auto format = whole.find("\"format\":") + 9;
    const auto after_format = whole.find_first_of(",}", format);
    REQUIRE(after_format != std::string::npos);
    for (const auto& [bad, warned] : std::vector<std::pair<std::string, bool>>{
             {whole.substr(0, words) + "1e300," + whole.substr(words), true},
             {whole.substr(0, words) + "4294967296," + whole.substr(words), true},
             {whole.substr(0, words) + "-1," + whole.substr(words), true},
             {whole.substr(0, format) + "1e300" + whole.substr(after_format), false}}) {
        CAPTURE(bad.substr(0, 80));
        write_bytes(entry, bad);
        std::vector<std::string> warnings;
        const GlslCache cache(cache_dir.path(),
                              [&](const std::string& text) { warnings.push_back(text); });
        const auto [recompiled, output] = compile_counted(cache, sources.request());
        CHECK(recompiled);
        CHECK(output.words == good.words);
        CHECK(read_bytes(entry) == whole);
        // A format that is no number this version writes is another version's entry.
        REQUIRE(warnings.size() == (warned ? 1U : 0U));
        if (warned) {
            CHECK_MESSAGE(warnings.front().find("not a list of 32-bit words") != std::string::npos,
                          warnings.front());
        }
    }
}

TEST_CASE("a compile error is not cached, and no directory means no cache") {
    const Sources sources;
    TempDirectory cache_dir;
    const GlslCache cache(cache_dir.path());
    GlslRequest broken = sources.request();
    broken.defines.clear();
    CHECK_FALSE(cache.compile(broken).ok);
    CHECK_FALSE(fs::exists(cache.entry_path(broken)));
    CHECK(compile_counted(cache, broken).first);

    const GlslCache none(std::nullopt);
    REQUIRE(none.compile(sources.request()).ok);
    CHECK(compile_counted(none, sources.request()).first);
}

TEST_CASE("opening the cache removes the temporaries a killed writer left, not a live writer's") {
    TempDirectory cache_dir;
    const fs::path dir = cache_dir.path();
    const fs::path stale = dir / "0123456789abcdef.json.tmp-4242-0";
    const fs::path fresh = dir / "fedcba9876543210.json.tmp-4243-0";
    const fs::path entry = dir / "0123456789abcdef.json";
    const fs::path unrelated = dir / "notes.txt.tmp-1";
    for (const fs::path& path : {stale, fresh, entry, unrelated}) {
        write_bytes(path, "{}");
    }
    const auto an_hour_ago = fs::file_time_type::clock::now() - std::chrono::hours(1);
    for (const fs::path& path : {stale, entry, unrelated}) {
        fs::last_write_time(path, an_hour_ago);
    }
    const GlslCache cache(dir);
    CHECK_FALSE(fs::exists(stale));
    CHECK(fs::exists(fresh));  // another process may be about to rename it
    CHECK(fs::exists(entry));
    CHECK(fs::exists(unrelated));
    CHECK(read_bytes(entry) == "{}");
}

}  // namespace glsl_cache_test
