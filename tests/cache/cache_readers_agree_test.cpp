// The cache file has two readers: parse_cache_fast (simdjson, the hot path) and parse_cache_full
// (nlohmann, every check and every message). parse_cache trusts the fast one whenever it returns a
// document, so a file it reads differently, or accepts where the full reader refuses, would load
// differently depending on which reader got to it. Every file below goes through both.
#include <cstddef>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <spvtune/cache/cache_format.hpp>

#include "cache/cache_samples.hpp"
#include "cache/reader_agreement.hpp"
#include "cache/temp_directory.hpp"
#include "hostile/corpus_files.hpp"

namespace cache_readers_agree_test {

using namespace spvtune::tune;
using namespace spvtune::tune::testing;
namespace hostile = spvtune::test::hostile;
using nlohmann::json;
using spvtune::cache::CacheDocument;
namespace fs = std::filesystem;

namespace {

const fs::path source_dir = SPVTUNE_SOURCE_DIR;

// How many files each reader took, so a corpus that silently went missing fails the test.
struct Tally {
    std::size_t files = 0;
    std::size_t fast_accepted = 0;
    std::size_t full_accepted = 0;
    std::size_t full_refused = 0;
};

void check_agree(const std::string& name, const std::string& text, Tally& tally) {
    INFO(name);
    const ReaderVerdicts verdicts = compare_readers(text);
    CHECK_MESSAGE(verdicts.disagreement.empty(), verdicts.disagreement);
    ++tally.files;
    tally.fast_accepted += verdicts.fast_accepted ? 1 : 0;
    tally.full_accepted += verdicts.full_accepted ? 1 : 0;
    tally.full_refused += verdicts.full_accepted ? 0 : 1;
}

void check_files(const std::string& pattern_dir, const std::string& extension, Tally& tally) {
    const fs::path directory = source_dir / pattern_dir;
    REQUIRE(fs::is_directory(directory));
    for (const auto& item : fs::recursive_directory_iterator(directory)) {
        if (item.is_regular_file() && item.path().extension() == extension) {
            check_agree(item.path().string(), read_bytes(item.path()), tally);
        }
    }
}

// The schema corpus's valid cache stands in for the tuned cache that the hostile corpus's cache
// cases patch (scripts/fuzz-seeds.py does the same): renamed to the corpus problem's tuner.
json hostile_bases(const json& corpus) {
    json bases = corpus.at("bases");
    json cache =
        json::parse(read_bytes(source_dir / "tests/problem/schema_corpus/cache/valid-base.json"));
    cache["tuners"] = {{"scale-test", cache["tuners"]["saxpy"]}};
    bases["cache"] = cache;
    return bases;
}

hostile::Placeholders hostile_placeholders(const json& bases, const fs::path& scratch) {
    const json& lists = bases.at("cache").at("tuners").at("scale-test");
    const std::string checksum = lists.begin().key();
    return {{"case", (scratch / "case").string()},
            {"casecache", (scratch / "case/cache").string()},
            {"cache", (scratch / "cache").string()},
            {"cachefile", "cache.json"},
            {"cachekey", "cache"},
            {"checksum", checksum},
            {"entry", lists.at(checksum).at("entries").begin().key()},
            {"kernels", (scratch / "kernels").string()}};
}

// Every plain file of every case (problems, cache files, extra files); FIFOs, directories, links
// and copies of built kernels have no text to read, and a text replacement that does not apply
// to the stand-in cache is left out.
void check_hostile_corpus(Tally& tally) {
    const json corpus = json::parse(read_bytes(source_dir / "tests/hostile/corpus.json"));
    const json bases = hostile_bases(corpus);
    const TempDirectory scratch;
    const hostile::Placeholders placeholders = hostile_placeholders(bases, scratch.path());
    std::size_t index = 0;
    const auto check_spec = [&](const std::string& name, const json& spec) {
        if (spec.contains("fifo") || spec.contains("directory") || spec.contains("symlink") ||
            spec.contains("copy")) {
            return;
        }
        const fs::path file = scratch.path() / std::to_string(index++);
        try {
            hostile::make_file(file, spec, bases, placeholders);
        } catch (const std::invalid_argument&) {
            return;
        }
        check_agree(name, read_bytes(file), tally);
    };
    for (const json& item : corpus.at("cases")) {
        const std::string name = "hostile corpus: " + item.at("name").get<std::string>();
        for (const char* member : {"problem", "cachefile"}) {
            if (item.contains(member)) {
                check_spec(name + " (" + member + ")", item.at(member));
            }
        }
        if (item.contains("files")) {
            for (const auto& [file, spec] : item.at("files").items()) {
                check_spec(name + " (" + file + ")", spec);
            }
        }
    }
}

// Entries as the tests and the tuner write them, with the values most easily read two ways:
// NaN and infinities, a key needing escapes, non-ASCII, nested settings, huge integers.
std::vector<CacheDocument> written_documents() {
    std::vector<CacheDocument> documents{sample_document(1), sample_document(40)};
    CacheDocument odd = spvtune::cache::make_cache_document(sample_hardware());
    TuneEntry entry = sample_entry("tiled_32x8", 7);
    entry.winner_index = 2;
    entry.ranking[0].statistics = {1,
                                   -0.0,
                                   5e-324,
                                   std::numeric_limits<double>::max(),
                                   std::numeric_limits<double>::quiet_NaN(),
                                   -std::numeric_limits<double>::infinity(),
                                   std::numeric_limits<double>::infinity()};
    entry.settings = json{{"nested", {{"list", {1, -1, 2.5, -0.0, "x\u00e9\"\\", nullptr, true}}}},
                          {"big", std::numeric_limits<std::uint64_t>::max()},
                          {"small", std::numeric_limits<std::int64_t>::min()}};
    entry.needs_retune = true;
    odd.put(sample_address("a/b~c\"\u2713"), sample_candidates(), {"n=a/b~c \u2713", entry});
    TuneEntry order_only = sample_entry("tiled_16x16", 2);
    spvtune::cache::keep_ranking_order_only(order_only);
    odd.put(sample_address("order-only", "reduce", 0xfedcba9876543210ULL), sample_candidates(),
            {"n=order-only", order_only});
    documents.push_back(odd);
    return documents;
}

}  // namespace

TEST_CASE("the fast and the full cache reader agree on every file of the repository's corpora") {
    Tally tally;
    check_files("configs", ".json", tally);
    check_files("tests/problem/schema_corpus", ".json", tally);
    check_files("tests/cli/problems", ".json", tally);
    check_hostile_corpus(tally);
    // Inputs of past fuzz findings (scripts/fuzz-seeds.py seeds them); none may exist yet.
    if (fs::is_directory(source_dir / "tests/fuzz/regressions")) {
        check_files("tests/fuzz/regressions", "", tally);
    }
    // The corpora hold valid caches both readers take and files the full reader refuses.
    CHECK(tally.files > 300);
    CHECK(tally.fast_accepted >= 5);
    CHECK(tally.full_refused >= 100);
}

TEST_CASE("the readers agree on every file spvtune writes, and the fast reader vouches for each") {
    for (const CacheDocument& document : written_documents()) {
        const std::string text = spvtune::cache::serialize_cache(document);
        const ReaderVerdicts verdicts = compare_readers(text);
        CHECK_MESSAGE(verdicts.disagreement.empty(), verdicts.disagreement);
        // The hot path must not fall back on what spvtune itself writes.
        CHECK(verdicts.fast_accepted);
    }
}

// Texts the readers once read differently, each kept with the reader that was wrong.
TEST_CASE("the readers agree on the files they once disagreed on") {
    const std::string text = spvtune::cache::serialize_cache(sample_document(1));
    const auto with = [&text](const std::string& from, const std::string& to) {
        const auto at = text.find(from);
        REQUIRE(at != std::string::npos);
        return std::string(text).replace(at, from.size(), to);
    };
    // simdjson reads -0 as the integer 0; the full reader called it "a negative number" and
    // refused it. JSON Schema takes -0 for 0, so the full reader was wrong: both now read 0.
    for (const std::string& minus_zero : {with("\"samples\":31", "\"samples\":-0"),
                                          with("\"vendor_id\": 4318", "\"vendor_id\": -0")}) {
        const ReaderVerdicts verdicts = compare_readers(minus_zero);
        CHECK_MESSAGE(verdicts.disagreement.empty(), verdicts.disagreement);
        CHECK(verdicts.full_accepted);
    }
}

// Both once took a winner named after another candidate than its index (issue 34): `cache show`
// printed the wrong winner and `cache verify` passed. The index is what runs, so the name must be
// that candidate's, as docs/cache-format.md says; each reader must refuse it on its own.
TEST_CASE("both readers refuse a winner whose name is not the name of its indexed candidate") {
    const std::string text = spvtune::cache::serialize_cache(sample_document(1));
    const json document = json::parse(text);
    const json& lists = document.at("tuners").at("matmul");
    const json::json_pointer winner("/tuners/matmul/" + lists.begin().key() + "/entries/" +
                                    lists.begin()->at("entries").begin().key() + "/winner");
    REQUIRE(document.at(winner) == json({{"index", 1}, {"name", "tiled_16x16"}}));
    for (const char* const name : {"naive", "nobody", "tiled_16x16 "}) {
        CAPTURE(name);
        json bad = document;
        bad[winner]["name"] = name;
        const ReaderVerdicts verdicts = compare_readers(bad.dump(1));
        CHECK_MESSAGE(verdicts.disagreement.empty(), verdicts.disagreement);
        CHECK_FALSE(verdicts.fast_accepted);
        CHECK_FALSE(verdicts.full_accepted);
    }
    // The text as written is read by both.
    CHECK(compare_readers(text).fast_accepted);
}

TEST_CASE("the readers agree on every truncation and every one-byte deletion of a valid file") {
    const std::string text = spvtune::cache::serialize_cache(written_documents().back());
    Tally tally;
    for (std::size_t at = 0; at < text.size(); ++at) {
        check_agree("first " + std::to_string(at) + " bytes", text.substr(0, at), tally);
        check_agree("byte " + std::to_string(at) + " deleted",
                    text.substr(0, at) + text.substr(at + 1), tally);
    }
    CHECK(tally.full_refused > 0);
}

}  // namespace cache_readers_agree_test
