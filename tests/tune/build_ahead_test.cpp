// BuildAhead: results built on its threads once each, handed over when their turn comes, memory
// bounded by the lookahead, nothing leaked or left running. Runs under TSan (the tsan preset).
#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/tune/build_ahead.hpp>

namespace build_ahead_test {

using spvtune::tune::BuildAhead;

namespace {

/// Counts the builds and the results alive, so a leak or a double build shows.
struct Counters {
    std::atomic<int> builds{0};
    std::atomic<int> alive{0};
};

/// A built result: the job's value doubled, counted while alive.
class Result {
  public:
    Result(int value, Counters& counters)
        : value_(value), token_(new int(0), [&counters](int* p) {
              --counters.alive;
              delete p;
          }) {
        ++counters.alive;
    }
    int value() const { return value_; }

  private:
    int value_;
    std::shared_ptr<int> token_;
};

using Builder = BuildAhead<int, Result>;

Builder::Build doubling(Counters& counters, std::chrono::microseconds cost = {}) {
    return [&counters, cost](const int& job) {
        ++counters.builds;
        std::this_thread::sleep_for(cost);
        return Result(2 * job, counters);
    };
}

std::vector<std::pair<std::size_t, int>> jobs(std::size_t count) {
    std::vector<std::pair<std::size_t, int>> list;
    for (std::size_t i = 0; i < count; ++i) {
        list.emplace_back(i, static_cast<int>(i) + 100);
    }
    return list;
}

}  // namespace

TEST_CASE("build ahead: every announced job is built once and handed over in its turn") {
    Counters counters;
    {
        Builder builder(doubling(counters, std::chrono::microseconds(200)), 2, 4);
        builder.announce(jobs(40));
        for (std::size_t i = 0; i < 40; ++i) {
            const auto taken = builder.take(i);
            REQUIRE(taken);
            CHECK(taken->value() == 2 * (static_cast<int>(i) + 100));
            CHECK(builder.held() <= 4);
        }
        CHECK(builder.held() == 0);
    }
    CHECK(counters.builds == 40);
    CHECK(counters.alive == 0);
}

TEST_CASE("build ahead: a job taken before its build started is built first") {
    Counters counters;
    Builder builder(doubling(counters, std::chrono::milliseconds(2)), 1, 2);
    builder.announce(jobs(20));
    // The last job, long before its turn: it jumps the queue rather than waiting for 19 builds.
    const auto taken = builder.take(19);
    REQUIRE(taken);
    CHECK(taken->value() == 238);
    CHECK(counters.builds <= 4);
    // Everything announced before it was passed over and freed.
    CHECK(builder.held() == 0);
    CHECK_FALSE(builder.take(3));  // passed over: the caller builds it
}

TEST_CASE("build ahead: at most the lookahead is built and not taken") {
    Counters counters;
    Builder builder(doubling(counters), 2, 3);
    builder.announce(jobs(50));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (builder.held() < 3 && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // time to build too many
    CHECK(builder.held() == 3);
    CHECK(counters.builds == 3);
    CHECK(counters.alive == 3);
}

TEST_CASE("build ahead: results no longer announced are freed, nothing leaks at the end") {
    Counters counters;
    {
        Builder builder(doubling(counters), 2, 8);
        builder.announce(jobs(8));
        REQUIRE(builder.take(0));
        builder.announce({{100, 1}, {101, 2}});  // the next key's jobs
        const auto next = builder.take(101);
        REQUIRE(next);
        CHECK(next->value() == 4);
        CHECK(builder.held() == 0);
        CHECK_FALSE(builder.take(5));  // no longer announced
        builder.announce(jobs(30));    // destroyed with builds queued and in flight
    }
    CHECK(counters.alive == 0);
}

TEST_CASE("build ahead: without threads or announcement the caller builds itself") {
    Counters counters;
    Builder none(doubling(counters), 0, 4);
    none.announce(jobs(3));
    CHECK_FALSE(none.take(0));
    Builder builder(doubling(counters), 2, 4);
    CHECK_FALSE(builder.take(7));
    CHECK(counters.builds == 0);
}

TEST_CASE("build ahead: announcements and takes from several threads") {
    Counters counters;
    {
        Builder builder(doubling(counters, std::chrono::microseconds(50)), 3, 4);
        std::atomic<bool> done{false};
        std::thread announcer([&] {
            for (int round = 0; round < 50 && !done; ++round) {
                builder.announce(jobs(16));
                std::this_thread::sleep_for(std::chrono::microseconds(300));
            }
        });
        for (int i = 0; i < 200; ++i) {
            const auto taken = builder.take(static_cast<std::size_t>(i % 16));
            if (taken) {
                CHECK(taken->value() == 2 * (i % 16 + 100));
            }
            CHECK(builder.held() <= 4);
        }
        done = true;
        announcer.join();
    }
    CHECK(counters.alive == 0);
}

}  // namespace build_ahead_test
