// The tuner owns its entries' addresses: callers re-tune through an option and read the settled
// entry from the execution info, never from the store behind the tuner's back.
#include <string>

#include <doctest/doctest.h>

#include "tune/fakes.hpp"

namespace tuner_ownership_test {

using namespace fakes;

namespace {

void enable_retune(Harness& h) {
    TunerOptions options = h.tuner.options();
    options.retune = true;
    h.tuner.set_options(std::move(options));
}

}  // namespace

TEST_CASE("the execution info carries the settled entry of a tuned, stored and memory hit") {
    Harness h;
    Bench bench(three_candidates());
    const Set set = bench.make_set();
    ExecutionInfo info;
    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{}, &info));
    REQUIRE(info.entry);
    CHECK(info.source == LookupSource::tuned);
    CHECK(info.entry->winner_name == "tiled");
    CHECK(info.entry->ranking.size() == 3);
    CHECK(info.entry->ranking.front().statistics.samples >= 8);

    ExecutionInfo hit;
    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{}, &hit));
    CHECK(hit.source == LookupSource::memory);
    CHECK(hit.entry == info.entry);  // the very entry the tuner holds, not a copy

    Tuner fresh("fake-op", h.tuner.options());
    ExecutionInfo stored;
    REQUIRE(fresh.execute(0, h.client, set, Inputs{}, &stored));
    CHECK(stored.source == LookupSource::store);
    REQUIRE(stored.entry);
    CHECK(stored.entry->winner_name == "tiled");
    CHECK(stored.entry->tuned_at == info.entry->tuned_at);
}

TEST_CASE("compiled and untuned runs carry no entry") {
    Harness compiling(false, true);
    Bench bench(three_candidates());
    const Set set = bench.make_set();
    ExecutionInfo info;
    info.entry = std::make_shared<const TuneEntry>();
    REQUIRE(compiling.tuner.execute(0, compiling.client, set, Inputs{}, &info));
    CHECK(info.source == LookupSource::compiled);
    CHECK_FALSE(info.entry);
    CHECK(bench.total_measures() == 0);
    CHECK(compiling.store->loads.load() == 0);

    Harness untuned;
    TunerOptions options = untuned.tuner.options();
    options.miss_policy = MissPolicy::run_preferred;
    untuned.tuner.set_options(std::move(options));
    ExecutionInfo preferred;
    REQUIRE(untuned.tuner.execute(0, untuned.client, set, Inputs{}, &preferred));
    CHECK(preferred.source == LookupSource::untuned);
    CHECK_FALSE(preferred.entry);
}

TEST_CASE("when the winner and every ranked candidate fail, the info still names the entry") {
    Harness h;
    Bench bench(three_candidates());
    const Set set = bench.make_set();
    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{}));
    for (const char* name : {"naive", "tiled", "vector"}) {
        bench[name].broken = true;
    }
    ExecutionInfo info;
    REQUIRE_FALSE(h.tuner.execute(0, h.client, set, Inputs{}, &info));
    REQUIRE(info.entry);
    CHECK(info.entry->winner_name == "tiled");
    CHECK_FALSE(info.entry->needs_retune);
}

TEST_CASE("retune measures a stored key again and replaces its entry once settled") {
    Harness h;
    Bench bench(three_candidates());
    const Set set = bench.make_set();
    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{}));
    const int measured = bench.total_measures();

    h.tuner.clear();  // a new run: nothing in memory, the store has the key
    enable_retune(h);
    ExecutionInfo info;
    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{}, &info));
    CHECK(info.source == LookupSource::tuned);
    CHECK(bench.total_measures() > measured);
    CHECK(h.events.count(TuneEventKind::store_hit) == 0);
    CHECK(h.store->saves.load() == 2);
    REQUIRE(h.stored(set));
    CHECK_FALSE(h.stored(set)->needs_retune);
    CHECK(h.stored(set)->winner_name == "tiled");
}

TEST_CASE("retune measures a key once per run: a later hit leaves the stored entry settled") {
    Harness h;
    Bench bench(three_candidates());
    const Set set = bench.make_set();
    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{}));
    h.tuner.clear();
    enable_retune(h);
    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{}));
    const int measured = bench.total_measures();

    // Another exact size that maps to the same key, or the same key again: a memory hit.
    ExecutionInfo info;
    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{.value = 5}, &info));
    CHECK(info.source == LookupSource::memory);
    CHECK(bench.total_measures() == measured);
    CHECK(h.store->retunes.load() == 1);
    REQUIRE(h.stored(set));
    CHECK_FALSE(h.stored(set)->needs_retune);
}

TEST_CASE("retune is ignored when the miss policy never measures") {
    Harness h;
    Bench bench(three_candidates());
    const Set set = bench.make_set();
    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{}));
    h.tuner.clear();
    TunerOptions options = h.tuner.options();
    options.retune = true;
    options.miss_policy = MissPolicy::run_preferred;
    h.tuner.set_options(std::move(options));
    const int measured = bench.total_measures();
    ExecutionInfo info;
    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{}, &info));
    CHECK(info.source == LookupSource::store);
    CHECK(bench.total_measures() == measured);
    CHECK(h.store->retunes.load() == 0);
    CHECK_FALSE(h.stored(set)->needs_retune);
}

TEST_CASE("each candidate about to be checked or measured is reported, and a hit reports none") {
    Harness h(true);
    Bench bench(three_candidates());
    Set set = bench.make_set();
    set.with_check(exact());
    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{}));
    const int started = h.events.count(TuneEventKind::candidate_started);
    // One per checks run (3) and one per sample measured, warm-ups included.
    CHECK(started == 3 + bench.total_measures());
    CHECK(h.events.last(TuneEventKind::candidate_started)->key == "size=64");

    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{}));
    CHECK(h.events.count(TuneEventKind::candidate_started) == started);
}

}  // namespace tuner_ownership_test
