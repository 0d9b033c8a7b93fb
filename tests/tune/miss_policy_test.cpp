// MissPolicy::run_preferred and run_nearest: applications that ship a cache run them and never
// benchmark.

#include <atomic>
#include <latch>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

#include "tune/fakes.hpp"

namespace miss_policy_test {

using namespace fakes;

namespace {

/// Harness `h`'s options with the never-tune policy: same store, reporter and sampling.
TunerOptions never_tune(const Harness& h) {
    TunerOptions options = h.tuner.options();
    options.miss_policy = MissPolicy::run_preferred;
    return options;
}

/// The usual cast, with "vector" preferred over the faster "tiled" when nothing is measured.
std::vector<Spec> vector_preferred() {
    std::vector<Spec> specs = three_candidates();
    specs[1].priority = [](const SizeKey&) { return 1; };
    specs[2].priority = [](const SizeKey&) { return 2; };
    return specs;
}

/// Tunes size 64 with the tune policy, so the shared store holds the winner "tiled".
void tune_into_store(Harness& h) {
    Bench bench(three_candidates());
    REQUIRE(h.tuner.execute(0, h.client, bench.make_set(), Inputs{}));
    REQUIRE(bench.total_measures() > 0);
    h.tuner.clear();
}

}  // namespace

TEST_CASE("a miss under run_preferred runs the preferred candidate, measures and records nothing") {
    Harness h;
    h.tuner.set_options(never_tune(h));
    Bench bench(vector_preferred());
    const Set set = bench.make_set();

    for (int call = 1; call <= 2; ++call) {
        CAPTURE(call);
        ExecutionInfo info;
        const Result<long, TuneError> out = h.tuner.execute(0, h.client, set, Inputs{}, &info);
        REQUIRE(out);
        CHECK(out.value() == 42);
        CHECK(info.source == LookupSource::untuned);
        CHECK(info.candidate == 2);
        // Nothing was remembered, so every call looks in the store again.
        CHECK(h.store->loads.load() == call);
        CHECK(h.events.count(TuneEventKind::untuned_miss) == call);
    }
    CHECK(bench["vector"].runs.load() == 2);
    CHECK(bench.total_runs() == 2);
    CHECK(bench.total_measures() == 0);
    CHECK(h.store->saves.load() == 0);
    CHECK(h.store->retunes.load() == 0);
    CHECK_FALSE(h.stored(set));
    CHECK_FALSE(h.tuner.fastest_identity(0, set, SizeKey{64}));
    CHECK(h.events.count(TuneEventKind::tuning_started) == 0);
    const auto miss = h.events.last(TuneEventKind::untuned_miss);
    REQUIRE(miss);
    CHECK(miss->candidate == "vector");
    CHECK(miss->key == "size=64");
    CHECK(to_string(LookupSource::untuned) == "untuned");
    CHECK(to_string(TuneEventKind::untuned_miss) == "untuned miss");
}

TEST_CASE("a key missed under run_preferred is answered once a tuning run fills the store") {
    Harness h;
    Tuner application("fake-op", never_tune(h));
    Bench shipped(vector_preferred());
    const Set set = shipped.make_set();
    ExecutionInfo info;
    REQUIRE(application.execute(0, h.client, set, Inputs{}, &info));
    REQUIRE(info.source == LookupSource::untuned);

    tune_into_store(h);
    CHECK(application.execute(0, h.client, set, Inputs{}, &info).value() == 42);
    CHECK(info.source == LookupSource::store);
    CHECK(info.candidate == 1);
    CHECK(shipped.total_measures() == 0);
}

TEST_CASE("a store hit under run_preferred runs the stored winner, then hits memory") {
    Harness h;
    tune_into_store(h);
    const int saves = h.store->saves.load();
    h.tuner.set_options(never_tune(h));
    Bench bench(vector_preferred());
    const Set set = bench.make_set();

    ExecutionInfo info;
    CHECK(h.tuner.execute(0, h.client, set, Inputs{}, &info).value() == 42);
    CHECK(info.source == LookupSource::store);
    CHECK(info.candidate == 1);
    CHECK(h.tuner.execute(0, h.client, set, Inputs{.value = 5}, &info).value() == 10);
    CHECK(info.source == LookupSource::memory);
    CHECK(info.candidate == 1);
    CHECK(bench["tiled"].runs.load() == 2);
    CHECK(bench["vector"].runs.load() == 0);
    CHECK(bench.total_measures() == 0);
    CHECK(h.store->saves.load() == saves);
    CHECK(h.events.count(TuneEventKind::untuned_miss) == 0);
}

TEST_CASE("under run_preferred a failing stored winner falls back without writing the store") {
    Harness h;
    tune_into_store(h);
    h.tuner.set_options(never_tune(h));
    Bench bench(three_candidates());
    const Set set = bench.make_set();
    bench["tiled"].broken = true;

    ExecutionInfo info;
    CHECK(h.tuner.execute(0, h.client, set, Inputs{}, &info).value() == 42);
    CHECK(info.source == LookupSource::fallback);
    CHECK(info.candidate == 2);  // "vector" ranked second
    CHECK(h.events.last(TuneEventKind::fallback_used)->candidate == "vector");
    CHECK(h.store->retunes.load() == 0);
    REQUIRE(h.stored(set));
    CHECK_FALSE(h.stored(set)->needs_retune);
    CHECK(bench.total_measures() == 0);

    // Still never tuned: the stored entry is read again and its ranking used again.
    CHECK(h.tuner.execute(0, h.client, set, Inputs{}, &info).value() == 42);
    CHECK(info.source == LookupSource::fallback);
    CHECK(h.events.count(TuneEventKind::tuning_started) == 1);  // tune_into_store's only
    CHECK(bench.total_measures() == 0);
}

TEST_CASE("run_preferred follows priority, then registration order, past failing candidates") {
    Harness h;
    h.tuner.set_options(never_tune(h));
    std::vector<Spec> specs = three_candidates();
    specs[0].run_error = "needs subgroups";
    Bench bench(specs);
    const Set set = bench.make_set();

    ExecutionInfo info;
    CHECK(h.tuner.execute(0, h.client, set, Inputs{}, &info).value() == 42);
    CHECK(info.source == LookupSource::untuned);
    CHECK(info.candidate == 1);
    CHECK(bench["naive"].runs.load() == 1);
    CHECK(bench["tiled"].runs.load() == 1);
    CHECK(bench["vector"].runs.load() == 0);
    const auto miss = h.events.last(TuneEventKind::untuned_miss);
    REQUIRE(miss);
    CHECK(miss->candidate == "tiled");
    // The application hears why the preferred candidate did not answer.
    CHECK(miss->message.find("passed over naive: needs subgroups") != std::string::npos);
}

TEST_CASE("run_preferred never runs a candidate with a negative priority") {
    Harness h;
    h.tuner.set_options(never_tune(h));
    std::vector<Spec> specs = three_candidates();
    specs[0].priority = [](const SizeKey&) { return -1; };
    specs[1].priority = [](const SizeKey& key) { return key.size == 64 ? -3 : 5; };
    Bench bench(specs);
    const Set set = bench.make_set();

    ExecutionInfo info;
    CHECK(h.tuner.execute(0, h.client, set, Inputs{}, &info).value() == 42);
    CHECK(info.candidate == 2);
    CHECK(bench["naive"].runs.load() == 0);
    CHECK(bench["tiled"].runs.load() == 0);
    // The same candidate is preferred for another key, where its priority allows it.
    CHECK(h.tuner.execute(0, h.client, set, Inputs{.size = 128}, &info).value() == 42);
    CHECK(info.candidate == 1);
    CHECK(bench["naive"].runs.load() == 0);
}

TEST_CASE("run_preferred with no candidate that works returns every reason and records nothing") {
    Harness h;
    h.tuner.set_options(never_tune(h));
    std::vector<Spec> specs = three_candidates();
    specs[0].priority = [](const SizeKey&) { return -2; };
    specs[1].run_error = "out of shared memory";
    specs[2].run_error = "needs float16";
    Bench bench(specs);
    const Set set = bench.make_set();

    ExecutionInfo info;
    const Result<long, TuneError> out = h.tuner.execute(0, h.client, set, Inputs{}, &info);
    REQUIRE_FALSE(out);
    const TuneError& error = out.error();
    CHECK(error.message ==
          "no viable candidate for key size=64 of tuner 'fake-op'\n"
          "  - naive (#0): skipped: priority -2 for this key\n"
          "  - tiled (#1): error: out of shared memory\n"
          "  - vector (#2): error: needs float16");
    REQUIRE(error.failures.size() == 3);
    CHECK(error.failures[0].kind == FailureKind::skipped);
    CHECK(bench["naive"].runs.load() == 0);
    CHECK(bench.total_measures() == 0);
    CHECK(h.store->saves.load() == 0);
    CHECK(h.events.count(TuneEventKind::untuned_miss) == 0);
}

TEST_CASE("threads missing one key under run_preferred all run it and nobody measures") {
    Harness h;
    h.tuner.set_options(never_tune(h));
    Bench bench(vector_preferred());
    const auto factory = [&] { return bench.make_set(); };
    constexpr int threads = 8;
    constexpr int calls = 50;
    std::atomic<int> wrong{0};
    std::atomic<int> untuned{0};
    std::latch start(threads);
    std::vector<std::thread> workers;
    for (int i = 0; i < threads; ++i) {
        workers.emplace_back([&, i] {
            const int device = i % 2;  // two device ids of the same hardware
            const auto set = h.tuner.init(device, factory);
            start.arrive_and_wait();
            for (int call = 0; call < calls; ++call) {
                ExecutionInfo info;
                const Inputs inputs{.value = i * calls + call};
                const auto out = h.tuner.execute(device, h.client, *set, inputs, &info);
                // Another thread may hold the key while it reads the store: then Pending runs
                // the same preferred candidate.
                if (!out || out.value() != expected_output(inputs) || info.candidate != 2 ||
                    (info.source != LookupSource::untuned &&
                     info.source != LookupSource::pending)) {
                    wrong.fetch_add(1);
                }
                untuned.fetch_add(info.source == LookupSource::untuned ? 1 : 0);
            }
        });
    }
    for (std::thread& worker : workers) {
        worker.join();
    }
    CHECK(wrong.load() == 0);
    CHECK(untuned.load() == h.events.count(TuneEventKind::untuned_miss));
    CHECK(untuned.load() == h.store->loads.load());
    CHECK(bench.total_measures() == 0);
    CHECK(h.store->saves.load() == 0);
}

namespace {

/// Tunes each of `sizes` with the tune policy into harness `h`'s store ("tiled" wins each).
void tune_sizes_into_store(Harness& h, std::initializer_list<std::uint64_t> sizes) {
    const TunerOptions before = h.tuner.options();
    TunerOptions tuning = before;
    tuning.miss_policy = MissPolicy::tune;
    h.tuner.set_options(tuning);
    Bench bench(three_candidates());
    const Set set = bench.make_set();
    for (const std::uint64_t size : sizes) {
        REQUIRE(h.tuner.execute(0, h.client, set, Inputs{.size = size}));
    }
    REQUIRE(bench.total_measures() > 0);
    h.tuner.clear();
    h.tuner.set_options(before);
}

TunerOptions run_nearest(const Harness& h) {
    TunerOptions options = h.tuner.options();
    options.miss_policy = MissPolicy::run_nearest;
    return options;
}

}  // namespace

TEST_CASE("run_nearest runs the winner of the nearest tuned key and says which key that was") {
    Harness h;
    tune_sizes_into_store(h, {16, 256});
    const int saves = h.store->saves.load();
    h.tuner.set_options(run_nearest(h));
    Bench bench(vector_preferred());  // untuned, "vector" would run
    const Set set = bench.make_set();

    ExecutionInfo info;
    CHECK(h.tuner.execute(0, h.client, set, Inputs{.size = 64}, &info).value() == 42);
    CHECK(info.source == LookupSource::nearest);
    CHECK(info.candidate == 1);  // "tiled", the winner of size 16 and of size 256
    // size=16 is two doublings away from 64, size=256 two as well: the tie goes to the key
    // whose JSON sorts first; size=32 would be nearer, once tuned.
    CHECK(info.nearest_key == "size=16");
    REQUIRE(info.entry);
    CHECK(info.entry->winner_name == "tiled");
    const auto used = h.events.last(TuneEventKind::nearest_used);
    REQUIRE(used);
    CHECK(used->candidate == "tiled");
    CHECK(used->message.find("nearest tuned key size=16") != std::string::npos);
    CHECK(bench.total_measures() == 0);
    CHECK(h.store->saves.load() == saves);
    CHECK_FALSE(h.tuner.fastest_identity(0, set, SizeKey{64}));

    tune_sizes_into_store(h, {128});
    CHECK(h.tuner.execute(0, h.client, set, Inputs{.size = 100}, &info).value() == 42);
    CHECK(info.nearest_key == "size=128");
    // A tuned key is an exact hit, not a neighbour of itself.
    CHECK(h.tuner.execute(0, h.client, set, Inputs{.size = 128}, &info).value() == 42);
    CHECK(info.source == LookupSource::store);
    CHECK(to_string(LookupSource::nearest) == "nearest");
    CHECK(to_string(TuneEventKind::nearest_used) == "nearest used");
}

TEST_CASE("run_nearest skips a neighbour whose winner cannot run the key, then runs the default") {
    Harness h;
    tune_sizes_into_store(h, {16});
    h.tuner.set_options(run_nearest(h));
    std::vector<Spec> specs = vector_preferred();
    specs[1].priority = [](const SizeKey& key) { return key.size == 64 ? -1 : 1; };
    Bench bench(specs);
    const Set set = bench.make_set();

    ExecutionInfo info;
    CHECK(h.tuner.execute(0, h.client, set, Inputs{.size = 64}, &info).value() == 42);
    CHECK(info.source == LookupSource::untuned);
    CHECK(info.candidate == 2);  // "vector", the preferred candidate
    CHECK(info.nearest_key.empty());
    CHECK(bench["tiled"].runs.load() == 0);

    // A neighbour whose winner fails at run time gives way the same way.
    Bench failing(vector_preferred());
    failing["tiled"].broken = true;
    CHECK(h.tuner.execute(0, h.client, failing.make_set(), Inputs{.size = 64}, &info).value() ==
          42);
    CHECK(info.source == LookupSource::untuned);
    CHECK(info.candidate == 2);
}

}  // namespace miss_policy_test
