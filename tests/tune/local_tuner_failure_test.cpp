#include <optional>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "tune/fakes.hpp"

namespace local_tuner_failure_test {

using namespace fakes;

TEST_CASE("a failing settled winner falls back to the runner-up and is not tried again") {
    Harness h;
    Bench bench(three_candidates());
    const Set set = bench.make_set();
    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{}));
    REQUIRE(h.tuner.fastest_identity(0, set, SizeKey{64}) == std::optional<std::size_t>(1));

    bench["tiled"].broken = true;
    ExecutionInfo info;
    CHECK(h.tuner.execute(0, h.client, set, Inputs{}, &info).value() == 42);
    CHECK(info.source == LookupSource::fallback);
    CHECK(info.candidate == 2);  // "vector" ranked second
    const auto fallback = h.events.last(TuneEventKind::fallback_used);
    REQUIRE(fallback);
    CHECK(fallback->candidate == "vector");
    CHECK(fallback->message == "settled winner 'tiled' failed: broken");
    const int tiled_runs = bench["tiled"].runs.load();
    const int measured = bench.total_measures();

    // No re-tune and no store write: the failing winner is skipped on these inputs from now on.
    CHECK(h.tuner.execute(0, h.client, set, Inputs{}, &info).value() == 42);
    CHECK(info.source == LookupSource::fallback);
    CHECK(info.candidate == 2);
    CHECK(bench["tiled"].runs.load() == tiled_runs);
    CHECK(bench.total_measures() == measured);
    CHECK(h.events.count(TuneEventKind::tuning_started) == 1);
    CHECK(h.store->retunes.load() == 0);
    CHECK(h.store->saves.load() == 1);
    REQUIRE(h.stored(set));
    CHECK_FALSE(h.stored(set)->needs_retune);
    CHECK(h.stored(set)->winner_name == "tiled");
    CHECK(h.tuner.fastest_identity(0, set, SizeKey{64}) == std::optional<std::size_t>(1));
}

TEST_CASE("when every ranked candidate fails the error lists each reason") {
    Harness h;
    Bench bench(three_candidates());
    const Set set = bench.make_set();
    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{}));
    for (const char* name : {"naive", "tiled", "vector"}) {
        bench[name].broken = true;
    }
    const Result<long, TuneError> out = h.tuner.execute(0, h.client, set, Inputs{});
    REQUIRE_FALSE(out);
    CHECK(out.error().message ==
          "settled winner 'tiled' failed: broken; no ranked candidate ran for key size=64 of "
          "tuner 'fake-op'\n"
          "  - naive (#0): error: broken\n"
          "  - tiled (#1): error: settled winner: broken\n"
          "  - vector (#2): error: broken");
}

TEST_CASE("checks mode rejects a wrong-but-fast candidate") {
    Harness h(true);
    Bench bench({{.name = "reference", .ns = 300, .jitter = 3},
                 {.name = "fast-but-wrong", .ns = 50, .jitter = 1, .offset = 1},
                 {.name = "good", .ns = 100, .jitter = 1}});
    Set set = bench.make_set();
    set.with_check(exact());
    ExecutionInfo info;
    CHECK(h.tuner.execute(0, h.client, set, Inputs{}, &info).value() == 42);
    CHECK(info.candidate == 2);
    const std::optional<TuneEntry> entry = h.stored(set);
    REQUIRE(entry);
    REQUIRE(entry->failures.size() == 1);
    CHECK(entry->failures[0].name == "fast-but-wrong");
    CHECK(entry->failures[0].kind == FailureKind::wrong_output);
    CHECK(entry->failures[0].reason == "differs from 'reference': expected 42, got 43");
    CHECK(bench["fast-but-wrong"].measures.load() == 0);
    CHECK(entry->ranking.size() == 2);
}

TEST_CASE("without checks mode the wrong-but-fast candidate wins (the checks are what catch it)") {
    Harness h(false);
    Bench bench({{.name = "reference", .ns = 300, .jitter = 3},
                 {.name = "fast-but-wrong", .ns = 50, .jitter = 1, .offset = 1}});
    Set set = bench.make_set();
    set.with_check(exact());
    CHECK(h.tuner.execute(0, h.client, set, Inputs{}).value() == 43);
}

TEST_CASE("checks compare against the reference candidate the caller names") {
    Harness h(true);
    // Candidate 0 is the odd one out; with candidate 1 as the reference it is the one rejected.
    Bench bench({{.name = "fast-odd", .ns = 50, .jitter = 1, .offset = 7},
                 {.name = "trusted", .ns = 300, .jitter = 3},
                 {.name = "good", .ns = 100, .jitter = 1}});
    Set set = bench.make_set();
    set.with_check(exact(), 1);
    ExecutionInfo info;
    CHECK(h.tuner.execute(0, h.client, set, Inputs{}, &info).value() == 42);
    CHECK(info.candidate == 2);
    const std::optional<TuneEntry> entry = h.stored(set);
    REQUIRE(entry);
    REQUIRE(entry->failures.size() == 1);
    CHECK(entry->failures[0].name == "fast-odd");
    CHECK(entry->failures[0].reason == "differs from 'trusted': expected 42, got 49");
}

TEST_CASE("the reference may be chosen per inputs: each key is checked against its own truth") {
    Harness h(true);
    // "trusted" is the truth for small inputs only; for large ones it is the odd one out.
    Bench bench({{.name = "trusted", .ns = 300, .jitter = 3, .offset = 7},
                 {.name = "other", .ns = 200, .jitter = 2},
                 {.name = "good", .ns = 100, .jitter = 1}});
    Set set = bench.make_set();
    set.with_check(exact(),
                   [](const Inputs& inputs) -> std::size_t { return inputs.size < 1024 ? 0 : 1; });
    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{.size = 64}));
    const std::optional<TuneEntry> small = h.stored(set, 64);
    REQUIRE(small);
    REQUIRE(small->failures.size() == 2);  // both differ from "trusted"
    CHECK(small->failures[0].reason == "differs from 'trusted': expected 49, got 42");

    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{.size = 4096}));
    const std::optional<TuneEntry> large = h.stored(set, 4096);
    REQUIRE(large);
    REQUIRE(large->failures.size() == 1);
    CHECK(large->failures[0].name == "trusted");
    CHECK(large->failures[0].reason == "differs from 'other': expected 42, got 49");
}

TEST_CASE("checks mode without a reference output compares nothing and says so") {
    Harness h(true);
    Bench bench({{.name = "reference", .run_error = "unsupported"},
                 {.name = "a", .ns = 100, .jitter = 1},
                 {.name = "b", .ns = 200, .jitter = 1}});
    Set set = bench.make_set();
    set.with_check(exact());
    ExecutionInfo info;
    CHECK(h.tuner.execute(0, h.client, set, Inputs{}, &info).value() == 42);
    CHECK(info.candidate == 1);
    CHECK(h.events.count(TuneEventKind::checks_note) == 1);
    const std::optional<TuneEntry> entry = h.stored(set);
    REQUIRE(entry);
    REQUIRE(entry->failures.size() == 1);
    CHECK(entry->failures[0].reason == "checks run: unsupported");
}

}  // namespace local_tuner_failure_test
