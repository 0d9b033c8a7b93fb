// Replaces the global operator new for this test binary, to count allocations per thread.
#include <cstddef>
#include <cstdlib>
#include <new>

#include <doctest/doctest.h>

#include "tune/fakes.hpp"

namespace {
thread_local std::size_t allocations = 0;
}  // namespace

namespace {
void* counted_malloc(std::size_t size) noexcept {
    ++allocations;
    return std::malloc(size == 0 ? 1 : size);
}
}  // namespace

// GCC's -Wmismatched-new-delete sees free() inside the replaced operator delete once inlined
// at -O2 and reports it, although replacement operators pairing malloc with free are exactly
// what the standard allows. The diagnostic is off for this file only.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

// Every unaligned form is replaced, so that no allocation from a sanitizer's own operator new
// is ever released by this free() (sanitizers replace all forms too).
void* operator new(std::size_t size) {
    if (void* memory = counted_malloc(size)) {
        return memory;
    }
    throw std::bad_alloc();
}
void* operator new[](std::size_t size) {
    return ::operator new(size);
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
    return counted_malloc(size);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
    return counted_malloc(size);
}
void operator delete(void* memory) noexcept {
    std::free(memory);
}
void operator delete[](void* memory) noexcept {
    std::free(memory);
}
void operator delete(void* memory, std::size_t) noexcept {
    std::free(memory);
}
void operator delete[](void* memory, std::size_t) noexcept {
    std::free(memory);
}
void operator delete(void* memory, const std::nothrow_t&) noexcept {
    std::free(memory);
}
void operator delete[](void* memory, const std::nothrow_t&) noexcept {
    std::free(memory);
}

using namespace fakes;

TEST_CASE("the allocation counter sees allocations") {
    const std::size_t before = allocations;
    // A direct call, kept alive through a volatile pointer: an optimiser may elide a plain
    // new-expression whose result is unused.
    void* volatile probe = ::operator new(sizeof(long));
    const std::size_t after = allocations;
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
    const std::size_t before = allocations;
    const Result<long, TuneError> first = h.tuner.execute(0, h.client, set, inputs, &info);
    const Result<long, TuneError> second = h.tuner.execute(1, h.client, set, inputs, &info);
    const std::size_t after = allocations;
    CHECK(after == before);
    CHECK(first.value() == 16);
    CHECK(second.value() == 16);
    CHECK(info.source == LookupSource::memory);

    // fastest_identity is just as cheap.
    const std::size_t before_query = allocations;
    const std::optional<std::size_t> fastest = h.tuner.fastest_identity(0, set, SizeKey{64});
    CHECK(allocations == before_query);
    CHECK(fastest == std::optional<std::size_t>(1));
}
