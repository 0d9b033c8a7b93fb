// The tuner names a key's candidates before it runs them all (TunableSet::with_prefetch), so a
// backend can build what they need ahead; a search that measures a few points names none.
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <latch>
#include <map>
#include <mutex>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

#include "tune/fakes.hpp"

namespace prefetch_hook_test {

using namespace fakes;

namespace {

/// What the hook heard: per call, the key's size and the candidates named. Thread-safe.
class Announcements {
  public:
    Set::Prefetch hook() {
        return [this](const Inputs& inputs, std::span<const std::size_t> candidates) {
            std::lock_guard lock(mutex_);
            calls_.push_back({inputs.size, {candidates.begin(), candidates.end()}});
        };
    }

    struct Call {
        std::uint64_t size;
        std::vector<std::size_t> candidates;
    };

    std::vector<Call> calls() const {
        std::lock_guard lock(mutex_);
        return calls_;
    }

  private:
    mutable std::mutex mutex_;
    std::vector<Call> calls_;
};

/// Preferences that differ from the registration order: tiled, vector, naive; `never` is
/// never run.
Bench ranked_bench() {
    const auto priority = [](int value) { return [value](const SizeKey&) { return value; }; };
    return Bench({{.name = "naive", .ns = 300, .jitter = 3, .priority = priority(0)},
                  {.name = "tiled", .ns = 100, .jitter = 1, .priority = priority(2)},
                  {.name = "vector", .ns = 200, .jitter = 2, .priority = priority(1)},
                  {.name = "never", .ns = 50, .priority = priority(-1)}});
}

void use_search(Harness& h, SearchSettings search) {
    TunerOptions options = h.tuner.options();
    options.search = search;
    h.tuner.set_options(std::move(options));
}

}  // namespace

TEST_CASE("an exhaustive tuning names every runnable candidate once, the reference first") {
    Bench bench = ranked_bench();
    Harness h(/*checks=*/true);
    Announcements heard;
    Set set = bench.make_set();
    set.with_check(exact(), 2).with_prefetch(heard.hook());
    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{}));
    const auto calls = heard.calls();
    REQUIRE(calls.size() == 1);
    CHECK(calls.front().size == Inputs{}.size);
    // The checked reference runs first, then the others by preference; `never` is not named.
    CHECK(calls.front().candidates == std::vector<std::size_t>{2, 1, 0});
    // A settled key runs its winner and names nothing, nor does a key the store answers.
    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{}));
    h.tuner.clear();
    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{}));
    CHECK(heard.calls().size() == 1);
}

TEST_CASE("without output checks, exhaustive and halving searches name them by preference") {
    for (const SearchStrategy strategy : {SearchStrategy::exhaustive, SearchStrategy::halving}) {
        const std::string name = nlohmann::json(strategy).dump();
        CAPTURE(name);
        Bench bench = ranked_bench();
        Harness h;
        use_search(h, {.strategy = strategy});
        Announcements heard;
        Set set = bench.make_set();
        set.with_prefetch(heard.hook());
        REQUIRE(h.tuner.execute(0, h.client, set, Inputs{}));
        REQUIRE(heard.calls().size() == 1);
        CHECK(heard.calls().front().candidates == std::vector<std::size_t>{1, 2, 0});
    }
}

TEST_CASE("a search that measures only the points it proposes names none") {
    const SearchSettings searches[] = {
        {.strategy = SearchStrategy::random, .max_candidates = std::size_t{2}},
        {.strategy = SearchStrategy::local},
        {.strategy = SearchStrategy::exhaustive, .budget = std::chrono::milliseconds(1000)},
        {.strategy = SearchStrategy::halving, .max_candidates = std::size_t{2}},
    };
    for (const SearchSettings& search : searches) {
        const std::string strategy = nlohmann::json(*search.strategy).dump();
        CAPTURE(strategy);
        Bench bench = ranked_bench();
        Harness h;
        use_search(h, search);
        Announcements heard;
        Set set = bench.make_set();
        set.with_prefetch(heard.hook());
        REQUIRE(h.tuner.execute(0, h.client, set, Inputs{}));
        CHECK(heard.calls().empty());
    }
}

TEST_CASE("compile-only mode names the candidates in the order it prepares them, every call") {
    Bench bench = ranked_bench();
    Harness h(/*checks=*/false, /*compile_only=*/true);
    Announcements heard;
    Set set = bench.make_set();
    set.with_prefetch(heard.hook());
    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{}));
    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{}));  // nothing recorded: prepared again
    const auto calls = heard.calls();
    REQUIRE(calls.size() == 2);
    CHECK(calls[0].candidates == std::vector<std::size_t>{1, 2, 0});
    CHECK(calls[1].candidates == calls[0].candidates);
}

TEST_CASE("a hook that throws costs only the hint") {
    Bench bench = ranked_bench();
    Harness h;
    Set set = bench.make_set();
    set.with_prefetch([](const Inputs&, std::span<const std::size_t>) {
        throw std::runtime_error("the build threads are gone");
    });
    ExecutionInfo info;
    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{}, &info));
    CHECK(info.source == LookupSource::tuned);
    CHECK(info.candidate == 1);
}

TEST_CASE("threads tuning different keys at once each name their own key's candidates") {
    Bench bench = ranked_bench();
    Harness h;
    Announcements heard;
    const auto factory = [&] {
        Set set = bench.make_set();
        set.with_prefetch(heard.hook());
        return set;
    };
    constexpr int threads = 8;
    std::latch start(threads);
    std::atomic<int> failed{0};
    std::vector<std::thread> workers;
    for (int i = 0; i < threads; ++i) {
        workers.emplace_back([&, i] {
            const auto set = h.tuner.init(0, factory);
            start.arrive_and_wait();
            const Inputs inputs{.size = 100 + static_cast<std::uint64_t>(i)};
            if (!h.tuner.execute(0, h.client, *set, inputs)) {
                failed.fetch_add(1);
            }
        });
    }
    for (std::thread& worker : workers) {
        worker.join();
    }
    CHECK(failed.load() == 0);
    std::map<std::uint64_t, int> per_key;
    for (const Announcements::Call& call : heard.calls()) {
        ++per_key[call.size];
        CHECK(call.candidates == std::vector<std::size_t>{1, 2, 0});
    }
    REQUIRE(per_key.size() == threads);
    for (const auto& [size, count] : per_key) {
        CAPTURE(size);
        CHECK(count == 1);
    }
}

}  // namespace prefetch_hook_test
