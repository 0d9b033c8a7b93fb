// Merging cache files from many machines: the entry with more evidence wins, conflicts are
// listed, and the result does not depend on the order of the sources.
#include <algorithm>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/cache/cache_format.hpp>
#include <spvtune/cache/cache_merge.hpp>

#include "cache_samples.hpp"

namespace cache_merge_test {

using namespace spvtune;
using namespace spvtune::tune::testing;

namespace {

CacheDocument document_with(const tune::HardwareIdentity& hardware,
                            const std::vector<std::pair<std::string, tune::TuneEntry>>& entries) {
    CacheDocument document = cache::make_cache_document(hardware);
    for (const auto& [key, entry] : entries) {
        document.put(sample_address(key), sample_candidates(), {"n=" + key, entry});
    }
    return document;
}

tune::TuneEntry with_winner_samples(tune::TuneEntry entry, std::size_t samples) {
    entry.ranking.front().statistics.samples = samples;
    return entry;
}

std::vector<std::string> serialized(const cache::MergedCaches& merged) {
    std::vector<std::string> texts;
    for (const auto& [key, document] : merged.documents) {
        texts.push_back(cache::serialize_cache(document));
    }
    return texts;
}

}  // namespace

TEST_CASE("the entry with more samples of its winner wins a merge, and the conflict is listed") {
    const auto gpu = sample_hardware();
    const CacheDocument a =
        document_with(gpu, {{"1024", with_winner_samples(sample_entry("tiled", 1), 12)},
                            {"2048", sample_entry("tiled", 2)}});
    const CacheDocument b =
        document_with(gpu, {{"1024", with_winner_samples(sample_entry("naive", 3), 40)},
                            {"4096", sample_entry("naive", 4)}});
    const cache::MergedCaches merged = cache::merge_caches({a, b});
    REQUIRE(merged.documents.size() == 1);
    const CacheDocument& document = merged.documents.begin()->second;
    CHECK(document.entry_count() == 3);
    CHECK(document.find(sample_address("1024"))->entry.winner_name == "naive");
    CHECK(document.find(sample_address("2048"))->entry.winner_name == "tiled");
    CHECK(document.find(sample_address("4096"))->entry.winner_name == "naive");
    REQUIRE(merged.conflicts.size() == 1);
    CHECK(merged.conflicts[0].kept_winner == "naive");
    CHECK(merged.conflicts[0].dropped_winner == "tiled");
    CHECK(merged.conflicts[0].printed_key == "n=1024");
}

TEST_CASE("evidence: not marked for re-tune, then samples, then a narrower interval, then newer") {
    tune::TuneEntry plain = sample_entry("a", 1);
    tune::TuneEntry marked = with_winner_samples(sample_entry("b", 1), 99);
    marked.needs_retune = true;
    CHECK(cache::has_more_evidence(plain, marked));
    CHECK_FALSE(cache::has_more_evidence(marked, plain));

    tune::TuneEntry narrow = plain;
    narrow.ranking.front().statistics.ci_high_ns = narrow.ranking.front().statistics.ci_low_ns + 1;
    CHECK(cache::has_more_evidence(narrow, plain));

    tune::TuneEntry newer = plain;
    newer.tuned_at = "2027-01-01T00:00:00Z";
    CHECK(cache::has_more_evidence(newer, plain));
    CHECK_FALSE(cache::has_more_evidence(plain, plain));
}

TEST_CASE("a merge gives the same bytes and conflicts whatever the order of its sources") {
    const auto gpu = sample_hardware();
    const auto other = sample_hardware("other-gpu-00000000000000bb");
    // Equal evidence everywhere: only the deterministic tie-break can decide.
    const std::vector<CacheDocument> sources = {
        document_with(gpu, {{"1024", sample_entry("tiled", 1)}, {"8", sample_entry("x", 5)}}),
        document_with(gpu, {{"1024", sample_entry("naive", 1)}}),
        document_with(other, {{"1024", sample_entry("vec4", 2)}}),
        document_with(gpu, {{"1024", sample_entry("blocked", 1)}, {"8", sample_entry("y", 5)}}),
    };
    std::vector<std::size_t> order = {0, 1, 2, 3};
    const cache::MergedCaches first = cache::merge_caches(sources);
    CHECK(first.documents.size() == 2);
    CHECK(first.conflicts.size() == 3);
    do {
        std::vector<CacheDocument> permuted;
        for (const std::size_t i : order) {
            permuted.push_back(sources[i]);
        }
        const cache::MergedCaches merged = cache::merge_caches(permuted);
        CHECK(serialized(merged) == serialized(first));
        REQUIRE(merged.conflicts.size() == first.conflicts.size());
        for (std::size_t i = 0; i < merged.conflicts.size(); ++i) {
            CHECK(merged.conflicts[i].kept_winner == first.conflicts[i].kept_winner);
            CHECK(merged.conflicts[i].dropped_winner == first.conflicts[i].dropped_winner);
        }
    } while (std::next_permutation(order.begin(), order.end()));
}

}  // namespace cache_merge_test
