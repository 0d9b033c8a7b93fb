// A reference-only candidate (tune::Candidate::reference_only) checks the others in checks mode
// and is never measured, never the winner and never cached as one, even when it is fastest.

#include <algorithm>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "tune/fakes.hpp"

namespace reference_only_test {

using namespace fakes;

/// A simple reference faster than every real candidate, a wrong candidate and two good ones.
std::vector<Spec> fast_simple_reference() {
    return {{.name = "simple", .ns = 10, .jitter = 1, .reference_only = true},
            {.name = "wrong", .ns = 50, .jitter = 1, .offset = 1},
            {.name = "tiled", .ns = 100, .jitter = 1},
            {.name = "vector", .ns = 200, .jitter = 2}};
}

const CandidateFailure* failure_of(const TuneEntry& entry, const std::string& name) {
    const auto found =
        std::find_if(entry.failures.begin(), entry.failures.end(),
                     [&](const CandidateFailure& failure) { return failure.name == name; });
    return found == entry.failures.end() ? nullptr : &*found;
}

/// What every test asks of a key tuned in checks mode against "simple".
void check_simple_only_checked(Harness& h, Bench& bench, const Set& set) {
    ExecutionInfo info;
    CHECK(h.tuner.execute(0, h.client, set, Inputs{}, &info).value() == 42);
    REQUIRE(info.entry);
    CHECK(info.entry->winner_name == "tiled");
    CHECK(info.entry->reference == std::optional<std::size_t>(0));
    CHECK(bench["simple"].measures.load() == 0);
    CHECK(bench["simple"].runs.load() == 1);  // once, for the check
    const CandidateFailure* wrong = failure_of(*info.entry, "wrong");
    REQUIRE(wrong != nullptr);
    CHECK(wrong->kind == FailureKind::wrong_output);
    CHECK(wrong->reason == "differs from 'simple': expected 42, got 43");
    const CandidateFailure* simple = failure_of(*info.entry, "simple");
    REQUIRE(simple != nullptr);
    CHECK(simple->kind == FailureKind::skipped);
    CHECK(simple->reason == "reference only: it checks the others and is never the winner");
    const std::optional<TuneEntry> stored = h.stored(set);
    REQUIRE(stored);
    CHECK(stored->winner_name == "tiled");
}

TEST_CASE("a reference-only reference checks the others but is never measured nor the winner") {
    Harness h(true);
    Bench bench(fast_simple_reference());
    Set set = bench.make_set();
    set.with_check(exact(), 0);
    check_simple_only_checked(h, bench, set);
}

TEST_CASE("a search checks against a reference-only reference it never proposes") {
    Harness h(true);
    h.search(SearchStrategy::random, 1);
    Bench bench(fast_simple_reference());
    Set set = bench.make_set();
    set.with_check(exact(), 0);
    check_simple_only_checked(h, bench, set);
}

TEST_CASE("without checks a reference-only candidate never runs") {
    Harness h(false);
    Bench bench(fast_simple_reference());
    Set set = bench.make_set();
    set.with_check(exact(), 0);
    ExecutionInfo info;
    // Unchecked, "wrong" is the fastest of those that may win.
    CHECK(h.tuner.execute(0, h.client, set, Inputs{}, &info).value() == 43);
    REQUIRE(info.entry);
    CHECK(info.entry->winner_name == "wrong");
    CHECK(bench["simple"].runs.load() == 0);
    CHECK(bench["simple"].measures.load() == 0);
}

TEST_CASE("a reference-only reference that fails to run gives way to the next reference") {
    Harness h(true);
    std::vector<Spec> specs = fast_simple_reference();
    specs[0].run_error = "out of registers";
    Bench bench(specs);
    Set set = bench.make_set();
    set.with_check(exact(), [](const Inputs&) { return std::vector<std::size_t>{0, 3}; });
    ExecutionInfo info;
    CHECK(h.tuner.execute(0, h.client, set, Inputs{}, &info).value() == 42);
    REQUIRE(info.entry);
    CHECK(info.entry->winner_name == "tiled");
    CHECK(info.entry->reference == std::optional<std::size_t>(3));
    const CandidateFailure* simple = failure_of(*info.entry, "simple");
    REQUIRE(simple != nullptr);
    CHECK(simple->kind == FailureKind::error);
    CHECK(simple->reason == "checks run: out of registers; checked against 'vector' instead");
    const CandidateFailure* wrong = failure_of(*info.entry, "wrong");
    REQUIRE(wrong != nullptr);
    CHECK(wrong->reason == "differs from 'vector': expected 42, got 43");
}

TEST_CASE("making a candidate reference-only changes the set's checksum") {
    std::vector<Spec> specs = fast_simple_reference();
    const Bench plain_bench([&] {
        std::vector<Spec> plain = specs;
        plain[0].reference_only = false;
        return plain;
    }());
    const Bench reference_bench(specs);
    CHECK(plain_bench.make_set().checksum() != reference_bench.make_set().checksum());
}

}  // namespace reference_only_test
