#include <limits>
#include <string>

#include <doctest/doctest.h>

#include <spvtune/cache/cache_format.hpp>

#include "cache/cache_samples.hpp"
#include "cache/entry_checks.hpp"

namespace cache_format_test {

using namespace spvtune::tune;

using namespace spvtune::cache;
using namespace spvtune::tune::testing;
using nlohmann::json;

namespace {

// A document touching every field and every enum value, with values that are easy to lose:
// NaN and infinities, a key whose JSON pointer needs escaping, non-ASCII text.
CacheDocument every_field_document() {
    CacheDocument document = make_cache_document(sample_hardware());
    TuneEntry odd = sample_entry("tiled_32x8", 7);
    odd.winner_index = 2;
    odd.ranking[0].statistics = {1,
                                 5.5,
                                 5.5,
                                 5.5,
                                 std::numeric_limits<double>::quiet_NaN(),
                                 -std::numeric_limits<double>::infinity(),
                                 std::numeric_limits<double>::infinity()};
    odd.needs_retune = true;
    odd.settings = json{{"nested", {{"list", {1, 2.5, "x", nullptr, true}}}}};
    document.put(sample_address("a/b~c"), sample_candidates(), CacheKeyRecord{"n=a/b~c ✓", odd});
    document.put(sample_address("plain"), sample_candidates(),
                 CacheKeyRecord{"n=plain", sample_entry()});
    TuneEntry one = sample_entry("one", 3);
    one.winner_index = 0;  // the list has one candidate
    document.put(sample_address("other", "reduce", 0xfedcba9876543210ULL), {{"one", "digest-1"}},
                 CacheKeyRecord{"n=other", one});
    return document;
}

std::string replace_once(std::string text, const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("every field survives a write and a read") {
    const CacheDocument original = every_field_document();
    const CacheDocument read = parse_cache(serialize_cache(original), "x.json");

    CHECK(read.schema_version == cache_schema_version);
    CHECK(read.tool_version == original.tool_version);
    CHECK_FALSE(read.tool_version.empty());
    check_same_hardware(read.hardware, original.hardware);
    REQUIRE(read.tuners.size() == 2);
    for (const auto& [tuner, lists] : original.tuners) {
        REQUIRE(read.tuners.count(tuner) == 1);
        for (const auto& [checksum, list] : lists) {
            const CacheCandidateList& got = read.tuners.at(tuner).at(checksum);
            REQUIRE(got.candidates.size() == list.candidates.size());
            for (std::size_t i = 0; i < list.candidates.size(); ++i) {
                CHECK(got.candidates[i].name == list.candidates[i].name);
                CHECK(got.candidates[i].content_digest == list.candidates[i].content_digest);
            }
            REQUIRE(got.entries.size() == list.entries.size());
            for (const auto& [key, record] : list.entries) {
                REQUIRE(got.entries.count(key) == 1);
                CHECK(got.entries.at(key).printed_key == record.printed_key);
                check_same_entry(got.entries.at(key).entry, record.entry);
            }
        }
    }
}

TEST_CASE("serialising is deterministic and re-serialising a read file is byte-identical") {
    const std::string text = serialize_cache(every_field_document());
    CHECK(text == serialize_cache(every_field_document()));
    CHECK(text.back() == '\n');
    CHECK(serialize_cache(parse_cache(text, "x.json")) == text);
    // Keys come out sorted whatever order they went in, so a new entry is a local diff.
    CHECK(text.find("\"format\": \"spvtune-cache\"") < text.find("\"hardware\""));
    CHECK(text.find("\"reduce\"") > text.find("\"matmul\""));
    CHECK(text.find("\"0123456789abcdef\"") != std::string::npos);
    CHECK(text.find("\"ci_high_ns\":\"inf\"") != std::string::npos);
    // One line per ranked candidate, so a diff shows which candidate changed.
    CHECK(
        text.find("\n              {\"eliminated\":false,\"index\":1,\"name\":\"tiled_16x16\",") !=
        std::string::npos);
}

TEST_CASE("errors name the file, the JSON pointer and what was expected") {
    const json good = json::parse(serialize_cache(every_field_document()));
    const std::string odd = "/tuners/matmul/0123456789abcdef/entries/{\"n\":\"a~1b~0c\"}";
    const std::string plain = "/tuners/matmul/0123456789abcdef/entries/{\"n\":\"plain\"}";

    struct Case {
        std::string pointer;  // the value replaced (or, with `erase`, removed)
        json value;
        std::string problem;
        std::string reported_pointer = pointer;
        bool erase = false;
    };
    const Case cases[] = {
        {plain + "/ranking/0/statistics/median_ns", "fast",
         "expected a number (or \"nan\", \"inf\", \"-inf\"), found a string"},
        {odd + "/needs_retune", 1, "expected true or false, found a number"},
        {odd + "/ranking/1/statistics/samples", -17,
         "expected a non-negative integer, found a negative number"},
        {odd + "/winner/index", 1.5, "expected a non-negative integer, found a fractional number"},
        {odd + "/winner/name", "naive",
         "expected \"tiled_32x8\", the name of candidate 2 (the winner's index), found \"naive\""},
        {odd + "/ranking/1/timing_method", "stopwatch",
         "expected \"device_timestamps\" or \"host_clock\""},
        {odd + "/failures/2/kind", "lost", "expected \"error\", \"wrong_output\" or \"skipped\""},
        {odd + "/failures/0/reason", nullptr, "expected a string, found a null"},
        {"/hardware/vendor_id", 4294967296ULL,
         "expected a 32-bit unsigned integer, found a number"},
        {"/hardware/record", json::array(), "expected an object, found an array"},
        {"/tuners", json::array(), "expected an object, found an array"},
        {"/tuners/matmul/0123456789abcdef/candidates", "none", "expected an array, found a string"},
        {"/format", "other", "expected \"spvtune-cache\", found \"other\""},
        {"/schema_version", 0, "expected a positive integer schema version, found 0"},
        {odd + "/ranking", nullptr, "expected a member \"ranking\", found none", odd, true},
        {"/tool_version", nullptr, "expected a member \"tool_version\", found none", "", true},
        {plain + "/extra", 1, "expected no member \"extra\""},
        {"/tuners/reduce/FEDCBA9876543210", json::object(),
         "expected the member name to be a candidate-list checksum of 16 lower-case hex digits"},
        {"/tuners/matmul/0123456789abcdef/entries/not json", json::object(),
         "expected the member name to be the key's canonical JSON"},
    };
    for (const Case& c : cases) {
        CAPTURE(c.pointer);
        json bad = good;
        const json::json_pointer at(c.pointer);
        if (c.erase) {
            bad[at.parent_pointer()].erase(at.back());
        } else {
            bad[at] = c.value;
        }
        try {
            parse_cache(bad.dump(2), "/some/dir/gpu.json");
            FAIL("accepted a bad document");
        } catch (const CacheFormatError& error) {
            CHECK(error.file() == "/some/dir/gpu.json");
            CHECK(error.pointer() == c.reported_pointer);
            CHECK(error.problem().starts_with(c.problem));
            const std::string where =
                c.reported_pointer.empty() ? "(document)" : c.reported_pointer;
            CHECK(std::string(error.what()).starts_with("/some/dir/gpu.json: " + where + ": "));
        }
    }
}

TEST_CASE("bad JSON syntax is reported with its line and column") {
    try {
        parse_cache("{\n  \"format\": spvtune\n}\n", "gpu.json");
        FAIL("accepted bad JSON");
    } catch (const CacheFormatError& error) {
        CHECK(error.pointer().empty());
        CHECK(error.problem().find("line 2") != std::string::npos);
        CHECK(std::string(error.what()).starts_with("gpu.json: (document): expected valid JSON"));
    }
    CHECK_THROWS_AS(parse_cache("", "gpu.json"), CacheFormatError);
    CHECK_THROWS_AS(parse_cache("[1, 2]", "gpu.json"), CacheFormatError);
}

TEST_CASE("a newer schema version is read, ignoring members this version does not know") {
    std::string text = serialize_cache(every_field_document());
    text = replace_once(text, "\"schema_version\": 2", "\"schema_version\": 3, \"future\": {}");
    text = replace_once(text, "\"printed_key\": \"n=plain\"",
                        "\"printed_key\": \"n=plain\", \"x\": 1");
    const CacheDocument document = parse_cache(text, "gpu.json");
    CHECK(document.schema_version == 3);
    CHECK(document.is_newer_schema());
    CHECK(document.find(sample_address("plain")) != nullptr);
    CHECK(document.entry_count() == 3);
}

TEST_CASE("invalid UTF-8 from a driver message is replaced, and the file stays stable") {
    CacheDocument document = make_cache_document(sample_hardware());
    TuneEntry entry = sample_entry();
    entry.failures[0].reason = "driver said \xff\xfe";
    document.put(sample_address("1"), sample_candidates(), CacheKeyRecord{"n=1", entry});
    const std::string text = serialize_cache(document);
    const CacheDocument read = parse_cache(text, "gpu.json");
    // Each invalid byte becomes U+FFFD, so the reader sees that something was there.
    CHECK(read.find(sample_address("1"))->entry.failures[0].reason ==
          "driver said \xEF\xBF\xBD\xEF\xBF\xBD");
    CHECK(serialize_cache(read) == text);
}

TEST_CASE("by default an entry keeps the winner's statistics and, of the others, their order") {
    CacheDocument document = make_cache_document(sample_hardware());
    TuneEntry entry = sample_entry();
    keep_ranking_order_only(entry);
    document.put(sample_address("1"), sample_candidates(), CacheKeyRecord{"n=1", entry});
    const std::string text = serialize_cache(document);
    CHECK(text.find("\"runners_up\": [\n              2,\n              0\n            ]") !=
          std::string::npos);
    CHECK(text.find("\"index\":0,\"name\":\"naive\"") == std::string::npos);  // no row of its own
    const TuneEntry read = parse_cache(text, "gpu.json").find(sample_address("1"))->entry;
    check_same_entry(read, entry);
    REQUIRE(read.ranking.size() == 3);
    CHECK(statistics_kept(read.ranking[0].statistics));
    CHECK(read.ranking[1].name == "tiled_32x8");  // named from the candidate list
    CHECK_FALSE(statistics_kept(read.ranking[1].statistics));
    CHECK(read.ranking[2].name == "naive");
    CHECK(read.ranking[2].index == 0);
    CHECK(serialize_cache(parse_cache(text, "gpu.json")) == text);
    // Kept whole, every ranked candidate has its row and none is a runner-up only.
    const std::string whole = serialize_cache(every_field_document());
    CHECK(whole.find("\"runners_up\": []") != std::string::npos);
    CHECK(whole.find("\"runners_up\": [\n") == std::string::npos);
}

TEST_CASE("a runner-up index outside the candidate list is an error") {
    CacheDocument document = make_cache_document(sample_hardware());
    TuneEntry entry = sample_entry();
    keep_ranking_order_only(entry);
    document.put(sample_address("1"), sample_candidates(), CacheKeyRecord{"n=1", entry});
    const std::string text =
        replace_once(serialize_cache(document), "              0\n            ]",
                     "              4\n            ]");
    try {
        parse_cache(text, "gpu.json");
        FAIL("expected an error");
    } catch (const CacheFormatError& error) {
        CHECK(error.pointer() ==
              "/tuners/matmul/0123456789abcdef/entries/{\"n\":\"1\"}/runners_up/1");
        CHECK(error.problem() == "runner-up index 4 is not one of the list's 4 candidates");
    }
}

TEST_CASE("a version 1 file (no runners_up) is still read, and written back as version 2") {
    const CacheDocument document = every_field_document();
    json v1 = json::parse(serialize_cache(document));
    v1["schema_version"] = 1;
    for (auto& [tuner, lists] : v1["tuners"].items()) {
        for (auto& [checksum, list] : lists.items()) {
            for (auto& [key, entry] : list["entries"].items()) {
                entry.erase("runners_up");
            }
        }
    }
    const CacheDocument read = parse_cache(v1.dump(2), "gpu.json");
    CHECK(read.schema_version == 1);
    CHECK_FALSE(read.is_newer_schema());
    CHECK(serialize_cache(read) == serialize_cache(document));
    // Version 1 knows no runners_up: one there is an unknown member, as any other would be.
    json wrong = v1;
    wrong["tuners"]["reduce"]["fedcba9876543210"]["entries"]["{\"n\":\"other\"}"]["runners_up"] =
        json::array();
    CHECK_THROWS_WITH_AS(parse_cache(wrong.dump(), "gpu.json"),
                         doctest::Contains("expected no member \"runners_up\""), CacheFormatError);
}

}  // namespace cache_format_test
