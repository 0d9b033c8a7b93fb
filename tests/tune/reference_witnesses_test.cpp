// Checks mode with witnesses against the reference (TunableSet::with_reference_witnesses): two
// candidates that agree where the reference gave a value they cannot match put the reference at
// fault, never themselves; one alone is wrong as before. Also: a reference that fails to run
// gives way to the next of its list.

#include <optional>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "tune/fakes.hpp"
#include "tune/reference_takeover.hpp"

namespace reference_witnesses_test {

using namespace fakes;

/// The fake output that stands for NaN: what "broken-ref" (offset -43) gives.
constexpr long not_a_number = -1;

/// The fake witness hooks: a candidate doubts a reference that gave "NaN" when its own output is
/// a number; two witnesses agree when their outputs are equal.
Set& with_witnesses(Set& set) {
    return set.with_reference_witnesses(
        [](const long& reference, const long& candidate) -> std::optional<std::string> {
            if (reference == not_a_number && candidate != not_a_number) {
                return "gave NaN at out[0]";
            }
            return std::nullopt;
        },
        [](const long&, const long& first, const long& second) { return first == second; });
}

Spec broken_reference() {
    return {.name = "broken-ref", .ns = 300, .jitter = 3, .offset = not_a_number - 42};
}

/// Tunes the bench's candidates, checked against the first ('broken-ref') alone.
Result<long, TuneError> tune_against_broken_reference(Harness& h, Bench& bench,
                                                      ExecutionInfo* info = nullptr) {
    Set set = bench.make_set();
    set.with_check(exact(), 0);
    return h.tuner.execute(0, h.client, with_witnesses(set), Inputs{}, info);
}

/// The key's error when the reference's "NaN" is put at fault by `first` and `second`.
std::string nan_fault(const std::string& first, const std::string& second) {
    return "no reference output can be trusted, so no candidate was checked\n"
           "  - broken-ref (#0): wrong output: the reference 'broken-ref' gave NaN at out[0] "
           "where '" +
           first + "' and '" + second + "' agree on finite values";
}

TEST_CASE("two candidates agreeing where the reference gave NaN fail the key for the reference") {
    Harness h(true);
    Bench bench({broken_reference(),
                 {.name = "good", .ns = 100, .jitter = 1},
                 {.name = "also-good", .ns = 200, .jitter = 2}});
    const auto out = tune_against_broken_reference(h, bench);
    REQUIRE_FALSE(out);
    CHECK(out.error().message == nan_fault("good", "also-good"));
    REQUIRE(out.error().failures.size() == 1);
    CHECK(out.error().failures[0].name == "broken-ref");
    CHECK(bench.total_measures() == 0);
}

TEST_CASE("candidates agreeing against a NaN reference find each other past a wrong witness") {
    Harness h(true);
    Bench bench({broken_reference(),
                 {.name = "off-by-one", .ns = 50, .jitter = 1, .offset = 1},
                 {.name = "good", .ns = 100, .jitter = 1},
                 {.name = "also-good", .ns = 200, .jitter = 2}});
    const auto out = tune_against_broken_reference(h, bench);
    REQUIRE_FALSE(out);
    CHECK(out.error().message == nan_fault("good", "also-good"));
    // 'good' ran once to be checked and once more to be compared with 'also-good'.
    CHECK(bench["good"].runs.load() == 2);
}

TEST_CASE("one candidate alone against a NaN reference is wrong, as without witnesses") {
    Harness h(true);
    Bench bench({broken_reference(), {.name = "good", .ns = 100, .jitter = 1}});
    ExecutionInfo info;
    CHECK(tune_against_broken_reference(h, bench, &info).value() == not_a_number);
    REQUIRE(info.entry);
    REQUIRE(info.entry->failures.size() == 1);
    CHECK(info.entry->failures[0].name == "good");
    CHECK(info.entry->failures[0].kind == FailureKind::wrong_output);
    CHECK(info.entry->failures[0].reason == "differs from 'broken-ref': expected -1, got 42");
}

TEST_CASE("two candidates that disagree where the reference gave NaN are both wrong") {
    Harness h(true);
    Bench bench({broken_reference(),
                 {.name = "good", .ns = 100, .jitter = 1},
                 {.name = "off-by-one", .ns = 200, .jitter = 2, .offset = 1}});
    ExecutionInfo info;
    CHECK(tune_against_broken_reference(h, bench, &info).value() == not_a_number);
    REQUIRE(info.entry);
    REQUIRE(info.entry->failures.size() == 2);
    CHECK(info.entry->failures[0].reason == "differs from 'broken-ref': expected -1, got 42");
    CHECK(info.entry->failures[1].reason == "differs from 'broken-ref': expected -1, got 43");
}

/// Tunes the bench's candidates, checked against the first two in that order.
Result<long, TuneError> tune_with_reference_list(Harness& h, Bench& bench, ExecutionInfo& info) {
    Set set = bench.make_set();
    set.with_check(exact(), [](const Inputs&) { return std::vector<std::size_t>{0, 1}; });
    return h.tuner.execute(0, h.client, with_witnesses(set), Inputs{}, &info);
}

/// A first reference, the reference after it, a wrong candidate and a good one.
std::vector<Spec> list_after(Spec first) {
    return {std::move(first),
            {.name = "second-ref", .ns = 200, .jitter = 2},
            {.name = "wrong", .ns = 50, .jitter = 1, .offset = 1},
            {.name = "good", .ns = 100, .jitter = 1}};
}

TEST_CASE("with a reference list, witnesses hand over to the next reference, which judges them") {
    Harness h(true);
    Bench bench(list_after(broken_reference()));
    ExecutionInfo info;
    CHECK(tune_with_reference_list(h, bench, info).value() == 42);
    CHECK(info.candidate == 3);
    // 'wrong' was held while 'broken-ref' was the truth, then judged against 'second-ref'.
    check_second_reference_took_over(info, h.events, "broken-ref",
                                     "the reference 'broken-ref' gave NaN at out[0] where "
                                     "'second-ref' and 'good' agree on finite values; checked "
                                     "against 'second-ref' instead",
                                     "wrong", "differs from 'second-ref': expected 42, got 43");
}

TEST_CASE("a search drops a held candidate that the reference taking over finds wrong") {
    Harness h(true);
    h.search(SearchStrategy::random, 1);
    Bench bench(list_after(broken_reference()));
    ExecutionInfo info;
    CHECK(tune_with_reference_list(h, bench, info).value() == 42);
    REQUIRE(info.entry);
    CHECK(info.entry->reference == std::optional<std::size_t>(1));
    CHECK(info.entry->winner_name == "good");
    for (const RankedCandidate& ranked : info.entry->ranking) {
        CHECK(ranked.name != "wrong");
        CHECK(ranked.name != "broken-ref");
    }
    bool wrong_reported = false;
    for (const CandidateFailure& failure : info.entry->failures) {
        CHECK(failure.name != "good");
        CHECK(failure.name != "second-ref");
        wrong_reported = wrong_reported ||
                         (failure.name == "wrong" && failure.kind == FailureKind::wrong_output);
    }
    CHECK(wrong_reported);
}

TEST_CASE("a reference that fails to run gives way to the next reference, and says why") {
    Harness h(true);
    Bench bench(list_after({.name = "crashing-ref", .ns = 300, .run_error = "device lost"}));
    ExecutionInfo info;
    CHECK(tune_with_reference_list(h, bench, info).value() == 42);
    CHECK(info.candidate == 3);
    check_second_reference_took_over(
        info, h.events, "crashing-ref",
        "checks run: device lost; checked against 'second-ref' instead", "wrong",
        "differs from 'second-ref': expected 42, got 43");
    CHECK(info.entry->failures[0].kind == FailureKind::error);
}

}  // namespace reference_witnesses_test
