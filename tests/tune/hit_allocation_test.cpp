// The tuner's hot path: a settled key runs without allocating (counted by the test binary's
// replaced operator new, support/counting_allocations.hpp).
#include <doctest/doctest.h>

#include "support/counting_allocations.hpp"
#include "tune/fakes.hpp"

namespace hit_allocation_test {

using spvtune::test::allocations;

using namespace fakes;

TEST_CASE("the allocation counter sees allocations") {
    const std::size_t before = allocations();
    // A direct call, kept alive through a volatile pointer: an optimiser may elide a plain
    // new-expression whose result is unused.
    void* volatile probe = ::operator new(sizeof(long));
    const std::size_t after = allocations();
    ::operator delete(probe);
    CHECK(after == before + 1);
}

TEST_CASE("a cache hit allocates nothing") {
    Harness h;
    Bench bench(
        {{.name = "naive", .ns = 300, .jitter = 3}, {.name = "tiled", .ns = 100, .jitter = 1}});
    const Set set = bench.make_set();
    REQUIRE(h.tuner.execute(0, h.client, set, Inputs{}));
    REQUIRE(h.tuner.execute(1, h.client, set, Inputs{}));  // device 1 opens its tuner entry

    ExecutionInfo info;
    const Inputs inputs{.value = 8};
    const std::size_t before = allocations();
    const Result<long, TuneError> first = h.tuner.execute(0, h.client, set, inputs, &info);
    const Result<long, TuneError> second = h.tuner.execute(1, h.client, set, inputs, &info);
    const std::size_t after = allocations();
    CHECK(after == before);
    CHECK(first.value() == 16);
    CHECK(second.value() == 16);
    CHECK(info.source == LookupSource::memory);

    // fastest_identity is just as cheap.
    const std::size_t before_query = allocations();
    const std::optional<std::size_t> fastest = h.tuner.fastest_identity(0, set, SizeKey{64});
    CHECK(allocations() == before_query);
    CHECK(fastest == std::optional<std::size_t>(1));
}

}  // namespace hit_allocation_test
