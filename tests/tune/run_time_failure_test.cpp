// A settled winner that fails at run time: the failing candidate is avoided on those inputs for
// the rest of the process instead of the key being re-tuned, so nothing thrashes, and a
// candidate that never produced an output never reaches the store.
#include <atomic>
#include <memory>
#include <string>

#include <doctest/doctest.h>

#include "tune/fakes.hpp"

namespace run_time_failure_test {

using namespace fakes;

namespace {

/// Runs and measures in `ns`; its run fails on sizes that are not a multiple of `multiple`.
struct Picky {
    std::string name;
    double ns = 100;
    std::uint64_t multiple = 1;
    std::shared_ptr<std::atomic<int>> runs = std::make_shared<std::atomic<int>>(0);
    std::shared_ptr<std::atomic<int>> measures = std::make_shared<std::atomic<int>>(0);

    Set::CandidateType candidate() const {
        Set::CandidateType c;
        c.name = name;
        c.run = [runs = runs, multiple = multiple](const Inputs& inputs) -> Result<long> {
            runs->fetch_add(1);
            if (inputs.size % multiple != 0) {
                return fail("size " + std::to_string(inputs.size) + " is not a multiple of " +
                            std::to_string(multiple));
            }
            return expected_output(inputs);
        };
        c.measure = [measures = measures, ns = ns](const Inputs&) -> Result<Sample> {
            measures->fetch_add(1);
            return Sample{ns, TimingMethod::device_timestamps};
        };
        return c;
    }
};

/// Sizes up to 8 share the key 8, exact sizes told apart by the set's input identity.
Set bucket_of_8(const std::vector<Picky>& candidates, bool with_identity) {
    Set set([](const Inputs& inputs) { return SizeKey{inputs.size <= 8 ? 8U : 16U}; });
    for (const Picky& picky : candidates) {
        set.add(picky.candidate());
    }
    if (with_identity) {
        set.with_input_identity([](const Inputs& inputs) { return inputs.size; });
    }
    return set;
}

}  // namespace

TEST_CASE("a winner failing on some bucket members is avoided there only, with no re-tune") {
    Harness h;
    const Picky needs8{.name = "needs8", .ns = 100, .multiple = 8};
    const Picky general{.name = "general", .ns = 300};
    const Set set = bucket_of_8({needs8, general}, true);
    ExecutionInfo info;
    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{.size = 8}, &info));
    REQUIRE(info.entry->winner_name == "needs8");
    const int measured = *needs8.measures + *general.measures;

    for (int round = 0; round < 3; ++round) {  // 7, 8, 7, 8, ...
        const Result<long, TuneError> seven =
            h.tuner.execute(0, h.client, set, Inputs{.size = 7}, &info);
        REQUIRE(seven);
        CHECK(seven.value() == expected_output(Inputs{.size = 7}));
        CHECK(info.source == LookupSource::fallback);
        CHECK(info.candidate == 1);
        REQUIRE(h.tuner.execute(0, h.client, set, Inputs{.size = 8}, &info));
        CHECK(info.source == LookupSource::memory);
        CHECK(info.candidate == 0);
    }
    CHECK(*needs8.measures + *general.measures == measured);
    CHECK(h.events.count(TuneEventKind::tuning_started) == 1);
    CHECK(h.store->saves.load() == 1);
    CHECK(h.store->retunes.load() == 0);
    CHECK_FALSE(h.stored(set, 8)->needs_retune);
    // Size 7 tried the winner once; every later size-7 call went straight to the runner-up.
    CHECK(*needs8.runs == 1 + 1 + 3);  // size 8's first call, size 7 once, size 8 three times
    const auto fallback = h.events.last(TuneEventKind::fallback_used);
    REQUIRE(fallback);
    CHECK(fallback->message ==
          "settled winner 'needs8' failed earlier on these inputs: size 7 is not a multiple of 8");
}

TEST_CASE("without an input identity a failing winner is avoided for its whole key") {
    Harness h;
    const Picky needs8{.name = "needs8", .ns = 100, .multiple = 8};
    const Picky general{.name = "general", .ns = 300};
    const Set set = bucket_of_8({needs8, general}, false);
    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{.size = 8}));
    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{.size = 7}));
    ExecutionInfo info;
    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{.size = 8}, &info));
    CHECK(info.source == LookupSource::fallback);
    CHECK(info.candidate == 1);
    CHECK(*needs8.runs == 2);
    CHECK(h.store->saves.load() == 1);
    CHECK(h.store->retunes.load() == 0);
}

TEST_CASE("a lone candidate that fails is never stored, and later calls do not retry it") {
    Harness h;
    const Picky only{.name = "only", .multiple = 8};
    const Set set = bucket_of_8({only}, true);
    for (int call = 0; call < 3; ++call) {
        const Result<long, TuneError> out = h.tuner.execute(0, h.client, set, Inputs{.size = 7});
        REQUIRE_FALSE(out);
        CHECK(out.error().message.find("size 7 is not a multiple of 8") != std::string::npos);
    }
    CHECK(*only.runs == 1);
    CHECK(*only.measures == 0);  // a lone candidate is not measured on the library's path
    CHECK(h.store->saves.load() == 0);
    CHECK(h.store->retunes.load() == 0);
    CHECK_FALSE(h.stored(set, 8));
    CHECK(h.events.count(TuneEventKind::tuning_failed) == 1);
    CHECK(h.events.count(TuneEventKind::tuning_finished) == 0);

    // Another member of the bucket that it can run still runs it; the entry stays in memory
    // (a lone unmeasured candidate has nothing worth keeping; the next process settles it again).
    ExecutionInfo info;
    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{.size = 8}, &info));
    CHECK(info.source == LookupSource::memory);
    CHECK(info.candidate == 0);
    CHECK(*only.runs == 2);
    CHECK(h.store->saves.load() == 0);
}

TEST_CASE("a lone candidate that runs is stored once its first output exists") {
    Harness h;
    const Picky only{.name = "only"};
    const Set set = bucket_of_8({only}, true);
    ExecutionInfo info;
    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{.size = 8}, &info));
    CHECK(info.source == LookupSource::tuned);
    CHECK(h.store->saves.load() == 1);
    REQUIRE(h.stored(set, 8));
    CHECK(h.stored(set, 8)->winner_name == "only");
    CHECK(h.events.count(TuneEventKind::tuning_finished) == 1);
}

}  // namespace run_time_failure_test
