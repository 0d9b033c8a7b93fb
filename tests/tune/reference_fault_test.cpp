// Checks mode with a reference whose output is at fault (TunableSet::with_reference_fault): the
// reference is blamed, never the candidates compared with it, and the next reference of a list
// takes over.

#include <optional>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "tune/fakes.hpp"
#include "tune/reference_takeover.hpp"

namespace reference_fault_test {

using namespace fakes;

/// The fake reference at fault: an output below zero stands for one it stopped writing early.
Set::ReferenceFault negative_is_unwritten() {
    return [](const long& out) -> std::optional<std::string> {
        if (out < 0) {
            return "stopped early (" + std::to_string(out) + ")";
        }
        return std::nullopt;
    };
}

/// A reference at fault, the reference after it, a wrong candidate and a good one.
std::vector<Spec> broken_then_good_reference() {
    return {{.name = "broken-ref", .ns = 300, .jitter = 3, .offset = -100},
            {.name = "second-ref", .ns = 200, .jitter = 2},
            {.name = "wrong", .ns = 50, .jitter = 1, .offset = 1},
            {.name = "good", .ns = 100, .jitter = 1}};
}

/// The bench's set, checked against its first two candidates in that order.
Set checked_against_both_references(Bench& bench) {
    Set set = bench.make_set();
    set.with_check(exact(),
                   [](const Inputs&) {
                       return std::vector<std::size_t>{0, 1};
                   })
        .with_reference_fault(negative_is_unwritten());
    return set;
}

TEST_CASE(
    "a reference at fault fails the key for itself, and no candidate runs or is called wrong") {
    Harness h(true);
    Bench bench({{.name = "broken-ref", .ns = 300, .jitter = 3, .offset = -100},
                 {.name = "good", .ns = 100, .jitter = 1},
                 {.name = "also-good", .ns = 200, .jitter = 2}});
    Set set = bench.make_set();
    set.with_check(exact(), 0).with_reference_fault(negative_is_unwritten());
    const auto out = h.tuner.execute(0, h.client, set, Inputs{});
    REQUIRE_FALSE(out);
    CHECK(out.error().message ==
          "no reference output can be trusted, so no candidate was checked\n"
          "  - broken-ref (#0): wrong output: the reference 'broken-ref' stopped early (-58)");
    REQUIRE(out.error().failures.size() == 1);
    CHECK(out.error().failures[0].name == "broken-ref");
    CHECK(bench["good"].runs.load() == 0);
    CHECK(bench["also-good"].runs.load() == 0);
    CHECK(bench.total_measures() == 0);
}

TEST_CASE("with a reference list the next reference takes over from one at fault, and says so") {
    Harness h(true);
    Bench bench(broken_then_good_reference());
    Set set = checked_against_both_references(bench);
    ExecutionInfo info;
    CHECK(h.tuner.execute(0, h.client, set, Inputs{}, &info).value() == 42);
    CHECK(info.candidate == 3);
    check_second_reference_took_over(
        info, h.events, "broken-ref",
        "the reference 'broken-ref' stopped early (-58); checked against 'second-ref' instead",
        "wrong", "differs from 'second-ref': expected 42, got 43");
    CHECK(info.entry->failures[0].kind == FailureKind::wrong_output);
    // The reference that took over ran once for the check, not again as a candidate.
    CHECK(bench["second-ref"].runs.load() == 1);
}

TEST_CASE("a search checks against the reference that took over") {
    Harness h(true);
    h.search(SearchStrategy::random, 1);
    Bench bench(broken_then_good_reference());
    Set set = checked_against_both_references(bench);
    ExecutionInfo info;
    CHECK(h.tuner.execute(0, h.client, set, Inputs{}, &info).value() == 42);
    REQUIRE(info.entry);
    CHECK(info.entry->reference == std::optional<std::size_t>(1));
    for (const CandidateFailure& failure : info.entry->failures) {
        CHECK(failure.name != "good");
        CHECK(failure.name != "second-ref");
    }
}

}  // namespace reference_fault_test
