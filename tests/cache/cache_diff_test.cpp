// What changed between two cache documents: added, removed, new winners with their times,
// entries marked for re-tune.
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

}  // namespace cache_diff_test
