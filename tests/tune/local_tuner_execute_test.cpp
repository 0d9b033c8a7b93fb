#include <chrono>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "tune/fakes.hpp"
#include "tune/iso8601.hpp"

namespace local_tuner_execute_test {

using namespace fakes;

TEST_CASE("a cold key is tuned, recorded in memory and the store, then hit from memory") {
    Harness h;
    Bench bench(three_candidates());
    const Set set = bench.make_set();
    ExecutionInfo info;
    const auto before = std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now());
    const Result<long, TuneError> first = h.tuner.execute(0, h.client, set, Inputs{}, &info);
    const auto after = std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now());
    REQUIRE(first);
    CHECK(first.value() == 42);
    CHECK(info.source == LookupSource::tuned);
    CHECK(info.candidate == 1);
    CHECK(h.store->loads.load() == 1);
    CHECK(h.store->saves.load() == 1);
    CHECK(h.events.count(TuneEventKind::tuning_started) == 1);
    CHECK(h.events.last(TuneEventKind::tuning_finished)->candidate == "tiled");
    CHECK(h.events.last(TuneEventKind::tuning_finished)->key == "size=64");

    const std::optional<TuneEntry> stored = h.stored(set);
    REQUIRE(stored);
    CHECK(stored->winner_name == "tiled");
    CHECK(stored->winner_index == 1);
    REQUIRE(stored->ranking.size() == 3);
    CHECK(stored->ranking[1].name == "vector");
    // 100, 200 and 300 ns with 1% jitter: the intervals part at the minimum sample count,
    // so each candidate takes its warm-up and exactly 8 samples.
    for (const RankedCandidate& ranked : stored->ranking) {
        CAPTURE(ranked.name);
        CHECK(ranked.statistics.samples == 8);
        CHECK(bench[ranked.name].measures.load() == 9);
    }
    CHECK(stored->settings.at("min_samples") == 8);
    const auto tuned_at = parse_iso8601(stored->tuned_at);
    REQUIRE_MESSAGE(tuned_at, stored->tuned_at);
    CHECK(*tuned_at >= before);
    CHECK(*tuned_at <= after);

    const int measured = bench.total_measures();
    CHECK(h.tuner.execute(0, h.client, set, Inputs{.value = 5}, &info).value() == 10);
    CHECK(info.source == LookupSource::memory);
    CHECK(bench.total_measures() == measured);
    CHECK(h.store->loads.load() == 1);
    // Another key of the same set is tuned on its own.
    CHECK(h.tuner.execute(0, h.client, set, Inputs{.size = 128}, &info).value() == 42);
    CHECK(info.source == LookupSource::tuned);
}

TEST_CASE("a miss found in the store is not benchmarked") {
    Harness h;
    Bench bench(three_candidates());
    const Set set = bench.make_set();
    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{}));

    // A new process: another tuner object with the same name, reading the same store.
    Bench fresh(three_candidates());
    const Set fresh_set = fresh.make_set();
    Tuner second("fake-op", h.tuner.options());
    ExecutionInfo info;
    CHECK(second.execute(3, h.client, fresh_set, Inputs{}, &info).value() == 42);
    CHECK(info.source == LookupSource::store);
    CHECK(info.candidate == 1);
    CHECK(fresh.total_measures() == 0);
    CHECK(h.events.last(TuneEventKind::store_hit)->candidate == "tiled");
    CHECK(second.fastest_identity(3, fresh_set, SizeKey{64}) == std::optional<std::size_t>(1));
}

TEST_CASE("a stored entry marked for re-tuning is tuned again") {
    Harness h;
    Bench bench(three_candidates());
    const Set set = bench.make_set();
    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{}));
    h.store->inner.mark_needs_retune(hardware("gpu-a"),
                                     {"fake-op", set.checksum(), R"({"size":64})"});
    h.tuner.clear();
    ExecutionInfo info;
    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{}, &info));
    CHECK(info.source == LookupSource::tuned);
    CHECK(h.events.count(TuneEventKind::tuning_started) == 2);
    CHECK(h.store->saves.load() == 2);
}

TEST_CASE("the entry another writer settled first is the one used") {
    Harness h;
    Bench bench(three_candidates());
    const Set set = bench.make_set();
    TuneEntry theirs;
    theirs.winner_name = "vector";
    theirs.winner_index = 2;
    RankedCandidate ranked;
    ranked.name = "vector";
    ranked.index = 2;
    theirs.ranking.push_back(ranked);
    h.store->settled_elsewhere = theirs;

    ExecutionInfo info;
    CHECK(h.tuner.execute(0, h.client, set, Inputs{}, &info).value() == 42);
    CHECK(info.candidate == 2);
    CHECK(h.tuner.fastest_identity(0, set, SizeKey{64}) == std::optional<std::size_t>(2));
    CHECK(h.events.count(TuneEventKind::store_note) == 1);
    CHECK(h.events.last(TuneEventKind::tuning_finished)->candidate == "vector");
}

TEST_CASE("a stored winner that is not its index's candidate is reported and tuned again") {
    Harness h;
    Bench bench(three_candidates());
    const Set set = bench.make_set();
    TuneEntry edited;
    edited.winner_name = "nobody";
    edited.winner_index = 1;
    h.store->inner.save(hardware("gpu-a"), {"fake-op", set.checksum(), R"({"size":64})"}, {},
                        "size=64", edited);

    ExecutionInfo info;
    CHECK(h.tuner.execute(0, h.client, set, Inputs{}, &info).value() == 42);
    CHECK(info.source == LookupSource::tuned);
    CHECK(h.events.count(TuneEventKind::tuning_started) == 1);
    REQUIRE(h.events.last(TuneEventKind::store_note));
    CHECK(h.events.last(TuneEventKind::store_note)->message ==
          "the cached entry's winner 'nobody' is not candidate 1 of the list, 'tiled'; the key "
          "is tuned again");
    CHECK(h.stored(set)->winner_name == "tiled");
    h.tuner.clear();  // the next process: the store's new entry answers, nothing is tuned
    CHECK(h.tuner.execute(0, h.client, set, Inputs{}, &info).value() == 42);
    CHECK(info.source == LookupSource::store);
    CHECK(h.events.count(TuneEventKind::tuning_started) == 1);
}

TEST_CASE("compile-only mode prepares every candidate, measures and records nothing") {
    Harness h(false, true);
    std::vector<Spec> specs = three_candidates();
    specs[0].run_error = "needs a newer driver";
    Bench bench(specs);
    const Set set = bench.make_set();
    ExecutionInfo info;
    CHECK(h.tuner.execute(0, h.client, set, Inputs{}, &info).value() == 42);
    CHECK(info.source == LookupSource::compiled);
    CHECK(info.candidate == 1);  // the first that works, in registration order
    for (const char* name : {"naive", "tiled", "vector"}) {
        CHECK(bench[name].prepares.load() == 1);
    }
    CHECK(bench.total_measures() == 0);
    CHECK(h.store->saves.load() == 0);
    CHECK(h.store->loads.load() == 0);
    CHECK_FALSE(h.tuner.fastest_identity(0, set, SizeKey{64}));
}

TEST_CASE("exactly one runnable candidate is settled without a benchmark") {
    Harness h;
    std::vector<Spec> specs = three_candidates();
    specs[0].priority = [](const SizeKey&) { return -1; };
    specs[2].priority = [](const SizeKey&) { return -1; };
    Bench bench(specs);
    const Set set = bench.make_set();
    ExecutionInfo info;
    CHECK(h.tuner.execute(0, h.client, set, Inputs{}, &info).value() == 42);
    CHECK(info.source == LookupSource::tuned);
    CHECK(info.candidate == 1);
    CHECK(bench.total_measures() == 0);
    const std::optional<TuneEntry> stored = h.stored(set);
    REQUIRE(stored);
    REQUIRE(stored->ranking.size() == 1);
    CHECK(stored->ranking[0].statistics.samples == 0);
    CHECK(stored->failures.size() == 2);
}

TEST_CASE("a candidate that errors while measured is skipped with its reason recorded") {
    Harness h;
    std::vector<Spec> specs = three_candidates();
    specs[1].measure_error = "workgroup size exceeds maxComputeWorkGroupSize";
    Bench bench(specs);
    const Set set = bench.make_set();
    ExecutionInfo info;
    CHECK(h.tuner.execute(0, h.client, set, Inputs{}, &info).value() == 42);
    CHECK(info.candidate == 2);
    const std::optional<TuneEntry> entry = h.stored(set);
    REQUIRE(entry);
    REQUIRE(entry->failures.size() == 1);
    CHECK(entry->failures[0].name == "tiled");
    CHECK(entry->failures[0].kind == FailureKind::error);
    CHECK(entry->failures[0].reason == "warm-up: workgroup size exceeds maxComputeWorkGroupSize");
    CHECK(entry->ranking.size() == 2);
}

TEST_CASE("no viable candidate is an error listing every candidate and its reason") {
    Harness h;
    Bench bench({{.name = "naive", .measure_error = "device lost"},
                 {.name = "tiled", .priority = [](const SizeKey&) { return -2; }},
                 {.name = "vector", .measure_error = "unsupported: shaderFloat64"}});
    const Set set = bench.make_set();
    const Result<long, TuneError> out = h.tuner.execute(0, h.client, set, Inputs{});
    REQUIRE_FALSE(out);
    const TuneError& error = out.error();
    CHECK(error.message ==
          "no viable candidate for key size=64 of tuner 'fake-op'\n"
          "  - naive (#0): error: warm-up: device lost\n"
          "  - tiled (#1): skipped: priority -2 for this key\n"
          "  - vector (#2): error: warm-up: unsupported: shaderFloat64");
    CHECK(error.failures.size() == 3);
    CHECK(h.store->saves.load() == 0);
    CHECK_FALSE(h.tuner.fastest_identity(0, set, SizeKey{64}));
    // Nothing stays pending: the next call tries again.
    CHECK_FALSE(h.tuner.execute(0, h.client, set, Inputs{}));
    CHECK(h.events.count(TuneEventKind::tuning_started) == 2);
}

TEST_CASE("negative priority means never run for that key only") {
    Harness h;
    std::vector<Spec> specs = three_candidates();
    // "tiled" is the fastest but only valid for small sizes.
    specs[1].priority = [](const SizeKey& key) { return key.size <= 64 ? 0 : -1; };
    Bench bench(specs);
    const Set set = bench.make_set();
    ExecutionInfo info;
    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{.size = 1024}, &info));
    CHECK(info.candidate == 2);
    CHECK(bench["tiled"].measures.load() == 0);
    CHECK(bench["tiled"].runs.load() == 0);
    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{.size = 64}, &info));
    CHECK(info.candidate == 1);
    CHECK(bench["tiled"].measures.load() > 0);
}

TEST_CASE("events name the tuner, hardware, checksum and key") {
    Harness h;
    Bench bench(three_candidates());
    const Set set = bench.make_set();
    std::vector<std::string> texts;
    TunerOptions options = h.tuner.options();
    options.reporter = [&](const TuneEvent& event) {
        if (event.kind == TuneEventKind::candidate_started) {
            return;  // one per sample: counted by the tuner ownership tests
        }
        texts.push_back(std::string(to_string(event.kind)) + " " + std::string(event.tuner) + " " +
                        std::string(event.hardware) + " " + std::string(event.key));
        CHECK(event.checksum == set.checksum());
        if (event.kind == TuneEventKind::tuning_finished) {
            REQUIRE(event.entry != nullptr);
            CHECK(event.entry->winner_name == "tiled");
        }
    };
    h.tuner.set_options(options);
    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{}));
    CHECK(texts == std::vector<std::string>{"tuning started fake-op gpu-a size=64",
                                            "tuning finished fake-op gpu-a size=64"});
}

}  // namespace local_tuner_execute_test
