#include <atomic>
#include <chrono>
#include <condition_variable>
#include <latch>
#include <mutex>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

#include "tune/fakes.hpp"

namespace concurrency_test {

using namespace fakes;

namespace {

/// Opens a gate once `expected` calls have arrived; waiters give up after a timeout, so a tuner
/// that wrongly waits on a tuning in flight fails the test instead of hanging it.
class Gate {
  public:
    explicit Gate(int expected) : expected_(expected) {}

    void arrive() {
        std::lock_guard lock(mutex_);
        ++arrived_;
        changed_.notify_all();
    }

    bool wait() {
        std::unique_lock lock(mutex_);
        return changed_.wait_for(lock, std::chrono::seconds(20),
                                 [&] { return arrived_ >= expected_; });
    }

  private:
    std::mutex mutex_;
    std::condition_variable changed_;
    int arrived_ = 0;
    const int expected_;
};

}  // namespace

TEST_CASE("8 threads executing one cold key benchmark it once and all get correct outputs") {
    Harness h;
    Bench bench({{.name = "naive", .ns = 300, .jitter = 3},
                 {.name = "tiled", .ns = 100, .jitter = 1},
                 {.name = "vector", .ns = 200, .jitter = 2}});
    const auto factory = [&] { return bench.make_set(); };
    constexpr int threads = 8;
    // The tuning thread's first measurement waits until the 7 others have returned: they must
    // take the Pending path and run a candidate themselves, never wait for the benchmark.
    Gate others_done(threads - 1);
    std::atomic<bool> gate_timed_out{false};
    std::atomic<bool> first_measure{true};
    TunerOptions options = h.tuner.options();
    const Reporter log = options.reporter;
    options.reporter = [&](const TuneEvent& event) {
        log(event);
        if (event.kind == TuneEventKind::tuning_started && first_measure.exchange(false)) {
            gate_timed_out = !others_done.wait();
        }
    };
    h.tuner.set_options(options);

    std::vector<long> outputs(threads, 0);
    std::vector<LookupSource> sources(threads);
    std::latch start(threads);
    std::vector<std::thread> workers;
    for (int i = 0; i < threads; ++i) {
        workers.emplace_back([&, i] {
            const int device = i % 2;  // two device ids of the same hardware
            const auto set = h.tuner.init(device, factory);
            ExecutionInfo info;
            start.arrive_and_wait();
            const Inputs inputs{.value = 100 + i};
            const Result<long, TuneError> out =
                h.tuner.execute(device, h.client, *set, inputs, &info);
            const auto slot = static_cast<std::size_t>(i);
            outputs[slot] = out ? out.value() : -1;
            sources[slot] = info.source;
            if (info.source != LookupSource::tuned) {
                others_done.arrive();
            }
        });
    }
    for (std::thread& worker : workers) {
        worker.join();
    }
    CHECK_FALSE(gate_timed_out.load());
    CHECK(h.events.count(TuneEventKind::tuning_started) == 1);
    CHECK(h.events.count(TuneEventKind::tuning_finished) == 1);
    CHECK(h.store->saves.load() == 1);
    int tuned = 0;
    for (int i = 0; i < threads; ++i) {
        const auto slot = static_cast<std::size_t>(i);
        CHECK(outputs[slot] == 2 * (100 + i));
        tuned += sources[slot] == LookupSource::tuned ? 1 : 0;
    }
    CHECK(tuned == 1);
    // Each measured candidate was measured by the one tuning thread only: one warm-up plus
    // the samples; nobody else measured.
    const auto set = h.tuner.init(0, factory);
    ExecutionInfo info;
    REQUIRE(h.tuner.execute(0, h.client, *set, Inputs{}, &info));
    CHECK(info.source == LookupSource::memory);
    CHECK(info.candidate == 1);
    const std::optional<TuneEntry> stored = h.stored(*set);
    REQUIRE(stored);
    REQUIRE(stored->ranking.size() == 3);
    for (const RankedCandidate& ranked : stored->ranking) {
        CAPTURE(ranked.name);
        CHECK(bench[ranked.name].measures.load() ==
              static_cast<int>(quick_sampling().warmup_runs + ranked.statistics.samples));
    }
}

TEST_CASE("threads on many keys and two devices agree with each other") {
    Harness h;
    // The slow candidate's output differs, so a thread that ran it instead of the settled
    // winner returns a visibly different value.
    Bench bench({{.name = "naive", .ns = 300, .jitter = 3, .offset = 1000},
                 {.name = "tiled", .ns = 100, .jitter = 1}});
    const auto factory = [&] { return bench.make_set(); };
    struct Call {
        int round;
        LookupSource source;
        std::size_t candidate;
        long output;
    };
    std::mutex calls_mutex;
    std::vector<Call> calls;
    std::vector<std::thread> workers;
    for (int t = 0; t < 4; ++t) {
        workers.emplace_back([&, t] {
            const auto set = h.tuner.init(t % 2, factory);
            for (int round = 0; round < 20; ++round) {
                const Inputs inputs{.size = static_cast<std::uint64_t>(16 << (round % 4)),
                                    .value = round};
                ExecutionInfo info;
                const Result<long, TuneError> out =
                    h.tuner.execute(t % 2, h.client, *set, inputs, &info);
                std::lock_guard lock(calls_mutex);
                calls.push_back({round, info.source, info.candidate, out ? out.value() : -1});
            }
        });
    }
    for (std::thread& worker : workers) {
        worker.join();
    }
    REQUIRE(calls.size() == 80);
    for (const Call& call : calls) {
        CAPTURE(call.round);
        CAPTURE(to_string(call.source));
        // While a key is being tuned elsewhere the preferred candidate (registered first) runs;
        // every other call runs the one winner, tiled.
        const std::size_t expected = call.source == LookupSource::pending ? 0 : 1;
        CHECK(call.candidate == expected);
        CHECK(call.output == 2 * call.round + (expected == 0 ? 1000 : 0));
    }
    CHECK(h.events.count(TuneEventKind::tuning_started) == 4);  // one per key, shared by devices
}

}  // namespace concurrency_test
