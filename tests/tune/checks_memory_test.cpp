#include <algorithm>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include <doctest/doctest.h>

#include "tune/fakes.hpp"

// Checks mode compares every candidate's output with the reference's. A 65,536-point grid
// whose outputs were all kept until the comparison held gigabytes: only the reference's output
// and the one being compared may be alive at a time.

namespace checks_memory_test {

using namespace fakes;

namespace {

/// An output that counts how many of its kind are alive, and the most that ever were.
struct HeldOutput {
    static inline int alive = 0;
    static inline int most = 0;
    long value = 0;

    explicit HeldOutput(long v) : value(v) { count_one(); }
    HeldOutput(const HeldOutput& other) : value(other.value) { count_one(); }
    HeldOutput(HeldOutput&& other) noexcept : value(other.value) { count_one(); }
    HeldOutput& operator=(const HeldOutput&) = default;
    HeldOutput& operator=(HeldOutput&&) = default;
    ~HeldOutput() { --alive; }

    static void count_one() {
        ++alive;
        most = std::max(most, alive);
    }
};

}  // namespace

TEST_CASE("checks mode keeps the reference's output and one other alive, not one per candidate") {
    using HeldSet = TunableSet<SizeKey, Inputs, HeldOutput>;
    constexpr std::size_t candidate_count = 64;
    HeldSet set(key_of);
    for (std::size_t i = 0; i < candidate_count; ++i) {
        HeldSet::CandidateType candidate;
        candidate.name = "c" + std::to_string(i);
        candidate.content_digest = candidate.name;
        // The last one is wrong, so every output really is compared.
        const long value = i + 1 == candidate_count ? 43 : 42;
        candidate.run = [value](const Inputs&) -> Result<HeldOutput> { return HeldOutput(value); };
        candidate.measure = [](const Inputs&) -> Result<Sample> { return Sample{100.0}; };
        set.add(std::move(candidate));
    }
    set.with_check(
        [](const HeldOutput& want, const HeldOutput& got) -> std::optional<std::string> {
            if (want.value == got.value) {
                return std::nullopt;
            }
            return "expected " + std::to_string(want.value) + ", got " + std::to_string(got.value);
        },
        candidate_count / 2);

    TunerOptions options;
    options.sampling = quick_sampling();
    options.store = std::make_shared<CountingStore>();
    options.checks = true;
    Tuner tuner("held-op");
    tuner.set_options(std::move(options));
    FixedIdentityClient client(hardware("gpu-a"));
    HeldOutput::most = HeldOutput::alive;

    ExecutionInfo info;
    REQUIRE(tuner.execute(0, client, set, Inputs{}, &info));
    REQUIRE(info.entry != nullptr);
    REQUIRE(info.entry->failures.size() == 1);
    CHECK(info.entry->failures[0].name == "c63");
    CHECK(info.entry->failures[0].reason == "differs from 'c32': expected 42, got 43");
    // Moves in and out of results count while both ends live; what matters is that the number
    // does not grow with the candidates (it reached 64 when every output was kept).
    CHECK(HeldOutput::most <= 4);
}

}  // namespace checks_memory_test
