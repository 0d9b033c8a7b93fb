// The Markdown reports end up in pull-request comments and release notes, but their names and
// key values come from files anyone can edit: no such text may end a table cell, start an image
// or link, or open an HTML comment that hides the rest of the page.
#include <filesystem>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <spvtune/cache/cache_file.hpp>
#include <spvtune/cache/cache_format.hpp>
#include <spvtune/cache/cache_location.hpp>

#include "cache/cache_samples.hpp"
#include "cache/temp_directory.hpp"
#include "spvtune_run.hpp"

namespace markdown_escaping_test {

using namespace spvtune;
using namespace spvtune::tune::testing;
using spvtune::test::contains;
using spvtune::test::run_spvtune;
namespace fs = std::filesystem;

namespace {

const std::string hostile = "<!-- | x | ![t](http://evil.example/t.png) `*_";

/// What a hostile cell would turn into when not escaped.
void check_escaped(const std::string& markdown) {
    CHECK_FALSE(contains(markdown, "<!--"));
    CHECK_FALSE(contains(markdown, "| x |"));
    CHECK_FALSE(contains(markdown, "![t]"));
    CHECK(contains(markdown, "&lt;!-- \\| x \\| !\\[t\\](http://evil.example/t.png) \\`\\*\\_"));
}

/// A saved `tune --json` report with one key and one candidate, every text hostile.
nlohmann::json saved_report() {
    nlohmann::json candidate{{"name", hostile}, {"samples_ns", {100.0, 101.0, 102.0}}};
    nlohmann::json key{{"key", {{"n", hostile}}}, {"candidates", {candidate}}};
    return {{"device", {{"device_name", hostile}, {"identity", "gpu-0123456789abcdef"}}},
            {"problems", {{{"name", hostile}, {"keys", {key}}}}}};
}

}  // namespace

TEST_CASE("compare --markdown escapes Markdown and HTML in names and key values") {
    TempDirectory scratch;
    const fs::path old_report = scratch.path() / "old.json";
    const fs::path new_report = scratch.path() / "new.json";
    nlohmann::json other = saved_report();
    other["problems"].push_back(
        {{"name", hostile + " only new"}, {"keys", nlohmann::json::array()}});
    write_bytes(old_report, saved_report().dump());
    write_bytes(new_report, other.dump());
    const fs::path markdown = scratch.path() / "compare.md";
    const auto run = run_spvtune(scratch, {"compare", "--results", old_report.string(),
                                           new_report.string(), "--markdown", markdown.string()});
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    check_escaped(read_bytes(markdown));
}

TEST_CASE("cache diff --markdown escapes Markdown and HTML in tuner names and keys") {
    TempDirectory scratch;
    const fs::path before = scratch.path() / "before";
    const fs::path after = scratch.path() / "after";
    fs::create_directories(before);
    fs::create_directories(after);
    write_bytes(before / cache::cache_file_name(sample_hardware()),
                cache::serialize_cache(cache::make_cache_document(sample_hardware())));
    cache::CacheDocument document = cache::make_cache_document(sample_hardware());
    document.put(sample_address("1", hostile), sample_candidates(),
                 {"n=" + hostile, sample_entry()});
    write_bytes(after / cache::cache_file_name(sample_hardware()),
                cache::serialize_cache(document));
    const fs::path markdown = scratch.path() / "diff.md";
    const auto run = run_spvtune(
        scratch, {"cache", "diff", before.string(), after.string(), "--markdown", markdown});
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    check_escaped(read_bytes(markdown));
}

}  // namespace markdown_escaping_test
