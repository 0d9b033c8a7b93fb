#include <chrono>
#include <cstddef>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/tune/sampling.hpp>

namespace host_clock_test {

using namespace spvtune::tune;
using Clock = std::chrono::steady_clock;

TEST_CASE("a host-clock sample is the time of one run, not of the batch spanning the window") {
    // Every run records when it started and ended, so the test knows what the last batch took
    // however much a busy machine stretches it. The first run returns at once, so the single-run
    // batch never spans the window and the last batch always holds at least 2 runs.
    std::vector<Clock::time_point> starts;
    Clock::time_point last_end;
    const Result<Sample> sample = measure_with_host_clock(
        [&]() -> Status {
            starts.push_back(Clock::now());
            const Clock::time_point until = starts.back() + std::chrono::microseconds(100);
            while (starts.size() > 1 && Clock::now() < until) {
            }
            last_end = Clock::now();
            return ok();
        },
        std::chrono::milliseconds(20));
    REQUIRE(sample);
    CHECK(sample.value().method == TimingMethod::host_clock);
    // Batches double from one run: 1 + 2 + 4 + ... calls, the last batch being half of them.
    const std::size_t calls = starts.size();
    REQUIRE(((calls + 1) & calls) == 0);
    const std::size_t runs = (calls + 1) / 2;
    REQUIRE(runs >= 2);
    const double last_batch_ns =
        std::chrono::duration<double, std::nano>(last_end - starts[calls - runs]).count();
    MESSAGE(runs << " runs in the last batch, " << last_batch_ns << " ns; sample "
                 << sample.value().ns_per_run << " ns");
    // The sample also spans the clock reads around the batch: a few hundred ns on 200+ us.
    CHECK(sample.value().ns_per_run >= 0.99 * last_batch_ns / static_cast<double>(runs));
    CHECK(sample.value().ns_per_run <= 1.25 * last_batch_ns / static_cast<double>(runs));
}

TEST_CASE("a host-clock measurement stops at the first failing run and reports its error") {
    int calls = 0;
    // The window is long enough that the third run always comes before it is spanned.
    const Result<Sample> sample = measure_with_host_clock(
        [&calls]() -> Status {
            if (++calls == 3) {
                return fail("device lost");
            }
            return ok();
        },
        std::chrono::seconds(10));
    REQUIRE_FALSE(sample);
    CHECK(sample.error() == "device lost");
    CHECK(calls == 3);
}

}  // namespace host_clock_test
