#include <cstddef>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "tune/fakes.hpp"

// The tuner with a search: a key with more candidates than the threshold is searched (local by
// default), points never proposed are never run, measured or prepared, the output check and the
// reference hold for every point that may matter, and the entry records the search.

namespace search_tuner_test {

using namespace fakes;

namespace {

constexpr std::size_t side = 20;  // a 20 x 20 grid: 400 candidates, above the threshold
constexpr std::size_t best = 13 * side + 6;

/// A grid set over `bench`'s counters whose times form a bowl around `best`; `wrong` points
/// compute a wrong output. Candidate 0 is the reference.
Set grid_set(std::vector<std::shared_ptr<Counters>>& counters, const std::set<std::size_t>& wrong) {
    Set set(key_of);
    for (std::size_t i = 0; i < side * side; ++i) {
        auto count = std::make_shared<Counters>();
        counters.push_back(count);
        const double dx = static_cast<double>(i / side) - 13;
        const double dy = static_cast<double>(i % side) - 6;
        const double ns = 100 * (1 + 0.05 * (dx * dx + dy * dy));
        const long offset = wrong.contains(i) ? 1 : 0;
        Set::CandidateType c;
        c.name = "g" + std::to_string(i);
        c.content_digest = c.name;
        c.run = [count, offset](const Inputs& inputs) -> Result<long> {
            count->runs.fetch_add(1);
            return expected_output(inputs) + offset;
        };
        c.measure = [count, ns](const Inputs&) -> Result<Sample> {
            count->measures.fetch_add(1);
            return Sample{ns, TimingMethod::device_timestamps};
        };
        c.prepare = [count]() -> Status {
            count->prepares.fetch_add(1);
            return ok();
        };
        set.add(std::move(c));
        set.with_grid_position(i, GridPosition{0, {i / side, i % side}});
    }
    set.with_check(exact(), 0);
    return set;
}

}  // namespace

TEST_CASE("a large key is searched (bayes): unproposed points never run, measure or prepare") {
    std::vector<std::shared_ptr<Counters>> counters;
    const Set set = grid_set(counters, {});
    Harness h(/*checks=*/true);
    ExecutionInfo info;
    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{}, &info));
    REQUIRE(info.entry != nullptr);
    const TuneEntry& entry = *info.entry;
    CHECK(entry.winner_index == best);
    REQUIRE(entry.search.has_value());
    CHECK(entry.search->strategy == SearchStrategy::bayes);
    CHECK(entry.search->runnable == side * side);
    CHECK(entry.search->steps.front().index == 0);  // the reference first
    std::set<std::size_t> traced;
    for (const SearchStep& step : entry.search->steps) {
        traced.insert(step.index);
    }
    CHECK(traced.size() < side * side / 3);
    for (std::size_t i = 0; i < counters.size(); ++i) {
        if (!traced.contains(i) && i != best) {
            CAPTURE(i);
            CHECK(counters[i]->runs.load() == 0);
            CHECK(counters[i]->measures.load() == 0);
            CHECK(counters[i]->prepares.load() == 0);
        }
    }
    CHECK(entry.settings["search"]["strategy"] == "bayes");
    CHECK(entry.settings["search"]["seed"] == 0);
    CHECK(entry.settings["search"]["measured"] == entry.search->steps.size());
    CHECK(entry.settings["search"]["runnable"] == side * side);
}

TEST_CASE("a wrong best point never wins a search, and is dropped as wrong output") {
    for (const SearchStrategy strategy :
         {SearchStrategy::random, SearchStrategy::halving, SearchStrategy::local}) {
        CAPTURE(strategy);
        std::vector<std::shared_ptr<Counters>> counters;
        const Set set = grid_set(counters, {best});
        Harness h(/*checks=*/true);
        TunerOptions options = h.tuner.options();
        options.search.strategy = strategy;
        options.search.max_candidates = side * side;
        h.tuner.set_options(options);
        ExecutionInfo info;
        REQUIRE(h.tuner.execute(0, h.client, set, Inputs{}, &info));
        REQUIRE(info.entry != nullptr);
        CHECK(info.entry->winner_index != best);
        // At most the one reading that says it may matter, and then checked.
        CHECK(counters[best]->measures.load() <= 1);
        CHECK(counters[best]->runs.load() >= counters[best]->measures.load());
        if (counters[best]->runs.load() > 0) {
            bool flagged = false;
            for (const CandidateFailure& failure : info.entry->failures) {
                flagged =
                    flagged || (failure.index == best && failure.kind == FailureKind::wrong_output);
            }
            CHECK(flagged);
        }
    }
}

TEST_CASE("a small key is tuned exhaustively by default, with a trace of every candidate") {
    Bench bench(three_candidates());
    Harness h(/*checks=*/true);
    Set set = bench.make_set();
    set.with_check(exact(), 0);
    ExecutionInfo info;
    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{}, &info));
    REQUIRE(info.entry != nullptr);
    REQUIRE(info.entry->search.has_value());
    CHECK(info.entry->search->strategy == SearchStrategy::exhaustive);
    CHECK(info.entry->search->steps.size() == 3);
    CHECK(info.entry->winner_name == "tiled");
    CHECK(info.entry->settings["search"]["strategy"] == "exhaustive");
}

TEST_CASE("grid positions are kept per candidate, and an index not in the set is refused") {
    Bench bench(three_candidates());
    Set set = bench.make_set();
    set.with_grid_position(2, GridPosition{1, {3, 4}});
    CHECK_FALSE(set.grid_position(0).has_value());
    REQUIRE(set.grid_position(2).has_value());
    CHECK(set.grid_position(2)->levels == std::vector<std::size_t>{3, 4});
    CHECK(set.grid_position(2)->family == 1U);
    CHECK_THROWS_AS(set.with_grid_position(3, GridPosition{}), std::out_of_range);
}

}  // namespace search_tuner_test
