#include <atomic>
#include <latch>
#include <memory>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

#include "tune/fakes.hpp"

namespace local_tuner_init_test {

using namespace fakes;

namespace {

std::vector<Spec> two_candidates(const std::string& digest = "v1") {
    return {{.name = "naive", .ns = 300, .jitter = 3, .digest = digest},
            {.name = "tiled", .ns = 100, .jitter = 1, .digest = digest}};
}

}  // namespace

TEST_CASE("init builds a set once per device and factory, and never shares it across devices") {
    Tuner tuner("init-op");
    Bench bench(two_candidates());
    int built = 0;
    const auto factory = [&] {
        ++built;
        return bench.make_set();
    };
    const std::shared_ptr<const Set> first = tuner.init(0, factory);
    CHECK(tuner.init(0, factory) == first);
    CHECK(built == 1);
    const std::shared_ptr<const Set> other_device = tuner.init(1, factory);
    CHECK(other_device != first);
    CHECK(built == 2);
    // Another factory (another lambda type) on the same device is another set.
    const auto other_factory = [&] { return bench.make_set(); };
    CHECK(tuner.init(0, other_factory) != first);
    CHECK(tuner.init(0, factory) == first);
    CHECK(built == 2);
}

TEST_CASE("concurrent first inits of one device build its set once") {
    Tuner tuner("init-op");
    Bench bench(two_candidates());
    std::atomic<int> built{0};
    const auto factory = [&] {
        built.fetch_add(1);
        return bench.make_set();
    };
    std::vector<const Set*> seen(8);
    std::latch start(8);
    std::vector<std::thread> threads;
    for (int i = 0; i < 8; ++i) {
        threads.emplace_back([&, i] {
            start.arrive_and_wait();
            seen[static_cast<std::size_t>(i)] = tuner.init(7, factory).get();
        });
    }
    for (std::thread& thread : threads) {
        thread.join();
    }
    CHECK(built.load() == 1);
    for (const Set* set : seen) {
        CHECK(set == seen.front());
    }
}

TEST_CASE("two device ids of one hardware share a tuner: the key is tuned once") {
    Harness h;
    Bench bench(two_candidates());
    const auto factory = [&] { return bench.make_set(); };
    const auto set0 = h.tuner.init(0, factory);
    const auto set1 = h.tuner.init(1, factory);
    ExecutionInfo info;
    CHECK(h.tuner.execute(0, h.client, *set0, Inputs{}, &info).value() == 42);
    CHECK(info.source == LookupSource::tuned);
    const int measured = bench.total_measures();
    CHECK(measured > 0);
    CHECK(h.tuner.execute(1, h.client, *set1, Inputs{}, &info).value() == 42);
    CHECK(info.source == LookupSource::memory);
    CHECK(info.candidate == 1);
    CHECK(bench.total_measures() == measured);
    CHECK(h.events.count(TuneEventKind::tuning_started) == 1);
}

TEST_CASE("another hardware, or another candidate list, gets its own tuner") {
    Harness h;
    Bench bench(two_candidates());
    Bench edited(two_candidates("v2"));
    const Set set = bench.make_set();
    const Set edited_set = edited.make_set();
    FixedIdentityClient other_gpu(hardware("gpu-b"));
    ExecutionInfo info;

    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{}, &info));
    CHECK(info.source == LookupSource::tuned);
    REQUIRE(h.tuner.execute(1, other_gpu, set, Inputs{}, &info));
    CHECK(info.source == LookupSource::tuned);
    CHECK(h.events.count(TuneEventKind::tuning_started) == 2);

    // An edited list (same names, new content digests) re-tunes, even with the old entry stored.
    REQUIRE(h.tuner.execute(0, h.client, edited_set, Inputs{}, &info));
    CHECK(info.source == LookupSource::tuned);
    CHECK(h.events.count(TuneEventKind::tuning_started) == 3);
    CHECK(edited.total_measures() > 0);
    CHECK(h.store->inner.size() == 3);

    // Each list keeps its own result on the device: the original is still a memory hit.
    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{}, &info));
    CHECK(info.source == LookupSource::memory);
}

TEST_CASE("fastest_identity reports settled winners only, and never tunes or reads the store") {
    Harness h;
    Bench bench(two_candidates());
    const Set set = bench.make_set();
    CHECK_FALSE(h.tuner.fastest_identity(0, set, SizeKey{64}));
    CHECK(bench.total_measures() == 0);
    CHECK(h.store->loads.load() == 0);

    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{}));
    CHECK(h.tuner.fastest_identity(0, set, SizeKey{64}) == std::optional<std::size_t>(1));
    CHECK_FALSE(h.tuner.fastest_identity(0, set, SizeKey{128}));

    // A device of the same hardware that never executed the set sees nothing yet...
    CHECK_FALSE(h.tuner.fastest_identity(1, set, SizeKey{64}));
    // ...until its first execute, which finds the shared result.
    REQUIRE(h.tuner.execute(1, h.client, set, Inputs{}));
    CHECK(h.tuner.fastest_identity(1, set, SizeKey{64}) == std::optional<std::size_t>(1));

    // After clear the result is only in the store, which fastest_identity does not read.
    const int loads = h.store->loads.load();
    h.tuner.clear();
    CHECK_FALSE(h.tuner.fastest_identity(0, set, SizeKey{64}));
    CHECK(h.store->loads.load() == loads);
}

TEST_CASE("clear drops in-memory results, and the store still answers") {
    Harness h;
    Bench bench(two_candidates());
    const Set set = bench.make_set();
    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{}));
    const int measured = bench.total_measures();
    h.tuner.clear();
    ExecutionInfo info;
    CHECK(h.tuner.execute(0, h.client, set, Inputs{}, &info).value() == 42);
    CHECK(info.source == LookupSource::store);
    CHECK(bench.total_measures() == measured);
    CHECK(h.events.count(TuneEventKind::store_hit) == 1);
    CHECK(h.tuner.execute(0, h.client, set, Inputs{}, &info).value() == 42);
    CHECK(info.source == LookupSource::memory);
}

namespace {
Set plain_factory() {
    return Set(key_of);
}
}  // namespace

// Checked when this file compiles: init's static_assert rejects the types refused here.
TEST_CASE("only factories whose type is their own may build sets") {
    const auto lambda = [] { return Set(key_of); };
    static_assert(detail::identifies_one_factory<decltype(lambda)>);
    static_assert(!detail::identifies_one_factory<decltype(&plain_factory)>);
    static_assert(!detail::identifies_one_factory<decltype(plain_factory)>);
    static_assert(!detail::identifies_one_factory<std::function<Set()>>);
    Tuner tuner("fake-op");
    CHECK(tuner.init(0, lambda)->size() == 0);
}

}  // namespace local_tuner_init_test
