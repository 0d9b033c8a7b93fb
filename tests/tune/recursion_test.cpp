#include <string>

#include <doctest/doctest.h>

#include "tune/fakes.hpp"

namespace recursion_test {

using namespace fakes;

namespace {

/// A set whose "split" candidate computes a size by executing `tuner` on half of it, the
/// pattern of a recursive kernel; "direct" computes it itself.
Set splitting_set(Tuner& tuner, const TuneClient& client, const Set*& self, double split_ns) {
    Set set(key_of);
    set.add({"direct",
             "v1",
             [](const Inputs& inputs) -> Result<long> { return inputs.value * 2; },
             [](const Inputs&) -> Result<Sample> {
                 return Sample{500, TimingMethod::host_clock};
             },
             {},
             {}});
    set.add({"split",
             "v1",
             [&tuner, &client, &self](const Inputs& inputs) -> Result<long> {
                 if (inputs.size <= 16) {
                     return inputs.value * 2;
                 }
                 Inputs half = inputs;
                 half.size /= 2;
                 Result<long, TuneError> out = tuner.execute(0, client, *self, half);
                 if (!out) {
                     return fail(out.error().message);
                 }
                 return out.value();
             },
             [&tuner, &client, &self, split_ns](const Inputs& inputs) -> Result<Sample> {
                 // Measuring also recurses, as timing a recursive kernel would.
                 if (inputs.size > 16) {
                     Inputs half = inputs;
                     half.size /= 2;
                     if (!tuner.execute(0, client, *self, half)) {
                         return fail("inner execute failed");
                     }
                 }
                 return Sample{split_ns, TimingMethod::host_clock};
             },
             {},
             {}});
    return set;
}

}  // namespace

TEST_CASE("a candidate may execute the same tuner for another key without deadlock") {
    Harness h;
    const Set* self = nullptr;
    const Set set = splitting_set(h.tuner, h.client, self, 100);
    self = &set;
    ExecutionInfo info;
    CHECK(h.tuner.execute(0, h.client, set, Inputs{.size = 256, .value = 4}, &info).value() == 8);
    CHECK(info.source == LookupSource::tuned);
    CHECK(info.candidate == 1);
    // Every size on the way down was tuned once: 256, 128, 64, 32, 16.
    CHECK(h.events.count(TuneEventKind::tuning_started) == 5);
    CHECK(h.tuner.fastest_identity(0, set, SizeKey{32}) == std::optional<std::size_t>(1));
}

TEST_CASE("a candidate may execute another tuner while being benchmarked") {
    Harness inner;
    Harness outer;
    Bench inner_bench({{.name = "x", .ns = 10}, {.name = "y", .ns = 20}});
    const Set inner_set = inner_bench.make_set();
    Set outer_set(key_of);
    const auto through_inner = [&](const Inputs& inputs) -> Result<long> {
        Result<long, TuneError> out = inner.tuner.execute(0, inner.client, inner_set, inputs);
        if (!out) {
            return fail(out.error().message);
        }
        return out.value();
    };
    outer_set.add({"a",
                   "v1",
                   through_inner,
                   [&](const Inputs& inputs) -> Result<Sample> {
                       if (!through_inner(inputs)) {
                           return fail("inner failed");
                       }
                       return Sample{100, TimingMethod::host_clock};
                   },
                   {},
                   {}});
    outer_set.add({"b",
                   "v1",
                   through_inner,
                   [](const Inputs&) -> Result<Sample> {
                       return Sample{200, TimingMethod::host_clock};
                   },
                   {},
                   {}});
    CHECK(outer.tuner.execute(0, outer.client, outer_set, Inputs{}).value() == 42);
    CHECK(inner.events.count(TuneEventKind::tuning_started) == 1);
    CHECK(outer.events.count(TuneEventKind::tuning_started) == 1);
}

TEST_CASE(
    "a recursive call for the key being tuned does not wait: it runs the preferred candidate") {
    Harness h;
    const Set* self = nullptr;
    LookupSource inner_source = LookupSource::memory;
    std::size_t inner_candidate = 99;
    Set set(key_of);
    set.add({"plain",
             "v1",
             [](const Inputs& inputs) -> Result<long> { return inputs.value * 2; },
             [](const Inputs&) -> Result<Sample> {
                 return Sample{300, TimingMethod::host_clock};
             },
             {},
             {}});
    set.add({"reentrant",
             "v1",
             [](const Inputs& inputs) -> Result<long> { return inputs.value * 2; },
             [&](const Inputs& inputs) -> Result<Sample> {
                 if (inputs.depth == 0) {
                     Inputs again = inputs;  // same key: the tuner is mid-way through it
                     again.depth = 1;
                     ExecutionInfo info;
                     if (!h.tuner.execute(0, h.client, *self, again, &info)) {
                         return fail("inner execute failed");
                     }
                     inner_source = info.source;
                     inner_candidate = info.candidate;
                 }
                 return Sample{100, TimingMethod::host_clock};
             },
             {},
             [](const SizeKey&) { return 5; }});
    self = &set;
    ExecutionInfo info;
    CHECK(h.tuner.execute(0, h.client, set, Inputs{}, &info).value() == 42);
    CHECK(info.source == LookupSource::tuned);
    CHECK(info.candidate == 1);
    CHECK(inner_source == LookupSource::pending);
    CHECK(inner_candidate == 1);  // the higher priority, though registered second
    CHECK(h.events.count(TuneEventKind::tuning_started) == 1);
}

}  // namespace recursion_test
