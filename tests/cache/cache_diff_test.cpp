// What changed between two cache documents: added, removed, new winners with their times,
// entries marked for re-tune.
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/cache/cache_diff.hpp>

#include "cache_samples.hpp"

namespace cache_diff_test {

using namespace spvtune;
using namespace spvtune::tune::testing;

TEST_CASE("a diff lists added, removed, changed and stale entries with the winners' times") {
    cache::CacheDocument old_document = cache::make_cache_document(sample_hardware());
    cache::CacheDocument new_document = cache::make_cache_document(sample_hardware());
    auto put = [](cache::CacheDocument& document, const std::string& key, tune::TuneEntry entry) {
        document.put(sample_address(key), sample_candidates(), {"n=" + key, std::move(entry)});
    };
    put(old_document, "1", sample_entry("same", 1));
    put(new_document, "1", sample_entry("same", 2));
    put(old_document, "2", sample_entry("old", 1));
    tune::TuneEntry faster = sample_entry("new", 1);
    faster.ranking.front().statistics.median_ns = 500;
    put(new_document, "2", faster);
    put(old_document, "3", sample_entry("gone", 1));
    put(new_document, "4", sample_entry("fresh", 1));
    tune::TuneEntry marked = sample_entry("same", 3);
    marked.needs_retune = true;
    put(old_document, "5", sample_entry("same", 3));
    put(new_document, "5", marked);

    const auto differences = cache::diff_caches(old_document, new_document);
    REQUIRE(differences.size() == 4);
    // Address order: keys sort as their canonical JSON, {"n":"2"} before {"n":"3"}...
    CHECK(differences[0].change == cache::EntryChange::winner_changed);
    CHECK(differences[0].old_winner == "old");
    CHECK(differences[0].new_winner == "new");
    REQUIRE(differences[0].new_ns.has_value());
    CHECK(*differences[0].new_ns == 500);
    CHECK(*differences[0].old_ns > 1000);
    CHECK(differences[1].change == cache::EntryChange::removed);
    CHECK(differences[1].old_winner == "gone");
    CHECK(differences[2].change == cache::EntryChange::added);
    CHECK(differences[2].new_winner == "fresh");
    CHECK(differences[3].change == cache::EntryChange::stale);
    CHECK(cache::entry_change_name(differences[3].change) == "stale");
}

namespace {

// An old entry won by tiled_16x16 (its runner-up tiled_32x8 tied or not) and a new one won by
// tiled_32x8 with the median interval [low, high].
std::vector<cache::EntryDifference> changed_winner(bool tied_in_old_run, double low, double high) {
    tune::TuneEntry old_entry = sample_entry("tiled_16x16", 0);  // its interval: [997, 1004]
    old_entry.ranking[1].tied_with_winner = tied_in_old_run;
    tune::TuneEntry new_entry = old_entry;
    std::swap(new_entry.ranking[0], new_entry.ranking[1]);
    new_entry.winner_name = "tiled_32x8";
    new_entry.winner_index = 2;
    new_entry.ranking[0].statistics.median_ns = (low + high) / 2;
    new_entry.ranking[0].statistics.ci_low_ns = low;
    new_entry.ranking[0].statistics.ci_high_ns = high;
    new_entry.ranking[1].tied_with_winner = false;
    cache::CacheDocument old_document = cache::make_cache_document(sample_hardware());
    cache::CacheDocument new_document = cache::make_cache_document(sample_hardware());
    old_document.put(sample_address("1"), sample_candidates(), {"n=1", old_entry});
    new_document.put(sample_address("1"), sample_candidates(), {"n=1", new_entry});
    return cache::diff_caches(old_document, new_document);
}

}  // namespace

TEST_CASE("a changed winner carries both winners' intervals and is significant when apart") {
    const auto differences = changed_winner(false, 400, 600);
    REQUIRE(differences.size() == 1);
    CHECK(differences[0].change == cache::EntryChange::winner_changed);
    REQUIRE(differences[0].old_interval.has_value());
    CHECK(differences[0].old_interval->low_ns == 997);
    CHECK(differences[0].old_interval->high_ns == 1004);
    REQUIRE(differences[0].new_interval.has_value());
    CHECK(differences[0].new_interval->low_ns == 400);
    CHECK(differences[0].new_interval->high_ns == 600);
    CHECK(differences[0].within_noise.empty());
}

TEST_CASE("a changed winner the old run had tied with its winner is marked within noise") {
    const auto differences = changed_winner(true, 400, 600);
    REQUIRE(differences.size() == 1);
    CHECK(differences[0].within_noise == "tied with tiled_32x8 in the old run");
}

TEST_CASE("a changed winner whose interval overlaps the old winner's is marked within noise") {
    const auto differences = changed_winner(false, 990, 1000);
    REQUIRE(differences.size() == 1);
    CHECK(differences[0].within_noise == "the winners' intervals overlap");
}

TEST_CASE("a changed winner the new run ranks tied with the old winner is marked within noise") {
    tune::TuneEntry old_entry = sample_entry("tiled_16x16", 0);
    old_entry.ranking[1].tied_with_winner = false;
    tune::TuneEntry new_entry = old_entry;
    std::swap(new_entry.ranking[0], new_entry.ranking[1]);
    new_entry.winner_name = "tiled_32x8";
    new_entry.winner_index = 2;
    new_entry.ranking[0].statistics.ci_low_ns = 1;
    new_entry.ranking[0].statistics.ci_high_ns = 2;
    new_entry.ranking[1].tied_with_winner = true;
    cache::CacheDocument old_document = cache::make_cache_document(sample_hardware());
    cache::CacheDocument new_document = cache::make_cache_document(sample_hardware());
    old_document.put(sample_address("1"), sample_candidates(), {"n=1", old_entry});
    new_document.put(sample_address("1"), sample_candidates(), {"n=1", new_entry});
    const auto differences = cache::diff_caches(old_document, new_document);
    REQUIRE(differences.size() == 1);
    CHECK(differences[0].within_noise == "tied with tiled_16x16 in the new run");
}

}  // namespace cache_diff_test
