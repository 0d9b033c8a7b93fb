// What happens to a settled winner that cannot run or fails: bucket members it cannot run fall
// back without touching the entry, and errors are complete.
#include <memory>
#include <string>

#include <doctest/doctest.h>

#include "tune/fakes.hpp"

namespace settled_winner_test {

using namespace fakes;

namespace {

/// Sizes up to 8 share the bucket key 8; "needs8" can only run sizes that are multiples of 8.
struct Bucketed {
    std::shared_ptr<std::uint64_t> exact = std::make_shared<std::uint64_t>(0);
    Bench bench;
    Set set;

    Bucketed()
        : bench({{.name = "general", .ns = 300, .jitter = 3},
                 {.name = "needs8",
                  .ns = 100,
                  .jitter = 1,
                  .priority = [exact = exact](const SizeKey&) { return *exact % 8 == 0 ? 0 : -1; }},
                 {.name = "middle", .ns = 200, .jitter = 2}}),
          set(bench.make_set([exact = exact](const Inputs& inputs) {
              *exact = inputs.size;
              return SizeKey{inputs.size <= 8 ? 8U : 16U};
          })) {}
};

}  // namespace

TEST_CASE("a bucket member the winner cannot run runs the best viable candidate, unmarked") {
    Harness h;
    Bucketed b;
    ExecutionInfo info;
    REQUIRE(h.tuner.execute(0, h.client, b.set, Inputs{.size = 8}, &info));
    CHECK(info.entry->winner_name == "needs8");
    const int measured = b.bench.total_measures();

    for (int round = 0; round < 3; ++round) {  // 7, 8, 7, 8, ...: no thrash
        REQUIRE(h.tuner.execute(0, h.client, b.set, Inputs{.size = 7}, &info));
        CHECK(info.source == LookupSource::fallback);
        CHECK(b.set.candidate(info.candidate).name == "middle");  // next in the ranking
        REQUIRE(info.entry);
        CHECK_FALSE(info.entry->needs_retune);
        REQUIRE(h.tuner.execute(0, h.client, b.set, Inputs{.size = 8}, &info));
        CHECK(info.source == LookupSource::memory);
        CHECK(b.set.candidate(info.candidate).name == "needs8");
    }
    CHECK(b.bench.total_measures() == measured);
    CHECK(b.bench["needs8"].runs.load() == 4);  // never asked to run a size it cannot
    CHECK(h.store->retunes.load() == 0);
    CHECK(h.store->saves.load() == 1);
    CHECK_FALSE(h.stored(b.set, 8)->needs_retune);
    CHECK(h.events.last(TuneEventKind::fallback_used)->message ==
          "settled winner 'needs8' cannot run these inputs");
}

TEST_CASE("when the fallback finds nothing, the error names every candidate, skipped ones too") {
    Harness h;
    Bench bench({{.name = "naive", .ns = 300, .jitter = 3},
                 {.name = "tiled", .ns = 100, .jitter = 1},
                 {.name = "never", .ns = 50, .priority = [](const SizeKey&) { return -1; }}});
    const Set set = bench.make_set();
    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{}));
    bench["naive"].broken = true;
    bench["tiled"].broken = true;
    const auto out = h.tuner.execute(0, h.client, set, Inputs{});
    REQUIRE_FALSE(out);
    CHECK(out.error().message ==
          "settled winner 'tiled' failed: broken; no ranked candidate ran for key size=64 of "
          "tuner 'fake-op'\n"
          "  - naive (#0): error: broken\n"
          "  - tiled (#1): error: settled winner: broken\n"
          "  - never (#2): skipped: priority -1 for this key");
}

TEST_CASE("a key no candidate can tune emits a tuning-failed event with the reasons") {
    Harness h;
    Bench bench({{.name = "a", .measure_error = "out of memory"},
                 {.name = "b", .measure_error = "device lost"}});
    const Set set = bench.make_set();
    REQUIRE_FALSE(h.tuner.execute(0, h.client, set, Inputs{}));
    CHECK(h.events.count(TuneEventKind::tuning_failed) == 1);
    const auto failed = h.events.last(TuneEventKind::tuning_failed);
    CHECK(failed->message.find("out of memory") != std::string::npos);
    CHECK(failed->message.find("device lost") != std::string::npos);
}

TEST_CASE("a lone candidate is measured when asked, and otherwise says it was not measured") {
    Bench bench({{.name = "only", .ns = 250}});
    const Set set = bench.make_set();

    Harness runtime;
    ExecutionInfo info;
    REQUIRE(runtime.tuner.execute(0, runtime.client, set, Inputs{}, &info));
    CHECK(info.entry->ranking.at(0).statistics.samples == 0);
    CHECK(bench["only"].measures.load() == 0);

    Harness tool;
    TunerOptions options = tool.tuner.options();
    options.measure_lone_candidate = true;
    tool.tuner.set_options(std::move(options));
    REQUIRE(tool.tuner.execute(0, tool.client, set, Inputs{}, &info));
    CHECK(info.entry->ranking.at(0).statistics.samples >= 8);
    CHECK(info.entry->ranking.at(0).statistics.median_ns == 250);

    Harness fixed;
    options = fixed.tuner.options();
    options.sampling = SamplingSettings::fixed(1, 5);
    fixed.tuner.set_options(std::move(options));
    REQUIRE(fixed.tuner.execute(0, fixed.client, set, Inputs{}, &info));
    CHECK(info.entry->ranking.at(0).statistics.samples == 5);
}

}  // namespace settled_winner_test
