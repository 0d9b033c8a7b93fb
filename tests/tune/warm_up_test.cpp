// Warm-up until stable: adaptive sampling keeps warming a candidate up while its runs are still
// clearly getting faster, so a slow first use does not become a sample; fixed sampling runs
// exactly the set number of warm-ups.
#include <cstddef>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/tune/benchmark.hpp>
#include <spvtune/tune/tuner_options.hpp>

#include "tune/fakes.hpp"

namespace warm_up_test {

using namespace spvtune::tune;

namespace {

/// Each call of a candidate returns the next time of its script, the last one repeating.
struct Warming {
    std::vector<std::vector<double>> times;
    std::vector<std::size_t> calls = std::vector<std::size_t>(times.size(), 0);

    SampleSource source() {
        return [this](std::size_t index) -> Result<Sample> {
            const std::vector<double>& script = times[index];
            const double ns = script[std::min(calls[index]++, script.size() - 1)];
            return Sample{ns, TimingMethod::device_timestamps};
        };
    }
};

SamplingSettings two_warmups(SamplingSettings settings) {
    settings.warmup_runs = 2;
    return settings;
}

}  // namespace

TEST_CASE("adaptive warm-up goes on while runs still get faster, then samples the steady time") {
    // "a" needs three more runs than the two set warm-ups to reach its steady 100 ns.
    Warming script{{{1000, 500, 200, 100, 100}, {150}}};
    const auto list = fakes::benchmark_candidates({"a", "b"});
    const BenchmarkOutcome outcome =
        run_benchmark(list, two_warmups(fakes::adaptive_sampling(8, 8)), script.source());
    // a: 1000, 500 (set), 200 and 100 (still over 10% faster), 100 (steady): 5 warm-ups.
    CHECK(script.calls[0] == 5 + 8);
    CHECK(script.calls[1] == 2 + 8);  // steady from the start: the set warm-ups only
    REQUIRE(outcome.ranking.size() == 2);
    CHECK(outcome.ranking[0].name == "a");
    CHECK(outcome.ranking[0].statistics.median_ns == 100);
    CHECK(outcome.ranking[0].statistics.min_ns == 100);
}

TEST_CASE("adaptive warm-up gives up after eight runs beyond the set ones") {
    std::vector<double> ever_faster;
    for (double ns = 100'000; ns > 1; ns *= 0.5) {
        ever_faster.push_back(ns);
    }
    Warming script{{ever_faster, {150}}};
    const auto list = fakes::benchmark_candidates({"a", "b"});
    static_cast<void>(
        run_benchmark(list, two_warmups(fakes::adaptive_sampling(8, 8)), script.source()));
    CHECK(script.calls[0] == 2 + 8 + 8);
}

TEST_CASE("fixed sampling runs exactly the set warm-ups, whatever the times do") {
    Warming script{{{1000, 500, 200, 100, 100}, {150}}};
    const auto list = fakes::benchmark_candidates({"a", "b"});
    const BenchmarkOutcome outcome =
        run_benchmark(list, SamplingSettings::fixed(2, 6), script.source());
    CHECK(script.calls[0] == 2 + 6);
    CHECK(script.calls[1] == 2 + 6);
    CHECK(outcome.ranking[0].statistics.min_ns == 100);
    CHECK(outcome.ranking[0].statistics.samples == 6);
}

TEST_CASE("no warm-up set means none, in adaptive mode too") {
    Warming script{{{1000, 500, 200, 100, 100}, {150}}};
    const auto list = fakes::benchmark_candidates({"a", "b"});
    SamplingSettings settings = fakes::adaptive_sampling(8, 8);
    settings.warmup_runs = 0;
    static_cast<void>(run_benchmark(list, settings, script.source()));
    CHECK(script.calls[0] == 8);
}

TEST_CASE("a run read before the race counts as the first warm-up, one measured fewer") {
    Warming script{{{1000, 500, 200, 100, 100}, {150}}};
    auto list = fakes::benchmark_candidates({"a", "b"});
    list[0].warm_reading = Sample{2000, TimingMethod::device_timestamps};
    SUBCASE("fixed: the reading and one measured warm-up make the two set") {
        static_cast<void>(run_benchmark(list, SamplingSettings::fixed(2, 6), script.source()));
        CHECK(script.calls[0] == 1 + 6);
        CHECK(script.calls[1] == 2 + 6);  // no reading: both measured
    }
    SUBCASE("one set warm-up calibrates the batch, which the one-run reading cannot") {
        static_cast<void>(run_benchmark(list, SamplingSettings::fixed(1, 6), script.source()));
        CHECK(script.calls[0] == 1 + 6);
        CHECK(script.calls[1] == 1 + 6);
    }
    SUBCASE("no warm-up set: the reading is not one") {
        static_cast<void>(run_benchmark(list, SamplingSettings::fixed(0, 6), script.source()));
        CHECK(script.calls[0] == 6);
    }
    SUBCASE("adaptive: the first measured warm-up is judged against the reading") {
        // 1000 is over 10% faster than the reading's 2000, so still warming: 500, 200 and 100
        // follow as in the test above, then the steady 100 stops it.
        const BenchmarkOutcome outcome =
            run_benchmark(list, two_warmups(fakes::adaptive_sampling(8, 8)), script.source());
        CHECK(script.calls[0] == 5 + 8);
        CHECK(outcome.ranking[0].statistics.min_ns == 100);
    }
    SUBCASE("adaptive: a reading no slower than the next run ends the warm-up there") {
        list[0].warm_reading = Sample{900, TimingMethod::device_timestamps};
        static_cast<void>(
            run_benchmark(list, two_warmups(fakes::adaptive_sampling(8, 8)), script.source()));
        CHECK(script.calls[0] == 1 + 8);
    }
    SUBCASE("adaptive: a reading by another clock is no measure of warming up") {
        // Twice the first warm-up's time, but by the host clock against device timestamps.
        list[0].warm_reading = Sample{2000, TimingMethod::host_clock};
        static_cast<void>(
            run_benchmark(list, two_warmups(fakes::adaptive_sampling(8, 8)), script.source()));
        CHECK(script.calls[0] == 1 + 8);
    }
    SUBCASE("adaptive: a reading over another batch is no measure of warming up") {
        // Twice the first warm-up's time, but over 4 runs against the warm-up's 1.
        list[0].warm_reading = Sample{2000, TimingMethod::device_timestamps, 4};
        static_cast<void>(
            run_benchmark(list, two_warmups(fakes::adaptive_sampling(8, 8)), script.source()));
        CHECK(script.calls[0] == 1 + 8);
    }
}

TEST_CASE("a race in checks mode counts each candidate's timed check run as a warm-up") {
    for (const bool timed : {false, true}) {
        CAPTURE(timed);
        fakes::Bench bench({{.name = "naive", .ns = 300},
                            {.name = "tiled", .ns = 100},
                            {.name = "wrong", .ns = 50, .offset = 1}});
        fakes::Harness h(/*checks=*/true);
        TunerOptions options = h.tuner.options();
        options.sampling = SamplingSettings::fixed(3, 6);
        h.tuner.set_options(std::move(options));
        fakes::Set set = bench.make_set();
        set.with_check(fakes::exact(), 0);
        if (timed) {
            set.with_run_reading([](const long&) {
                return Sample{400, TimingMethod::device_timestamps};
            });
        }
        REQUIRE(h.tuner.execute(0, h.client, set, fakes::Inputs{}));
        for (const char* name : {"naive", "tiled"}) {
            CAPTURE(name);
            CHECK(bench[name].runs >= 1);
            CHECK(bench[name].measures == (timed ? 2 : 3) + 6);
        }
        CHECK(bench["wrong"].measures == 0);  // failed its check: never raced
    }
}

}  // namespace warm_up_test
