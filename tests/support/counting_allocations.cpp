// Replaces the global operator new of the test binary it is linked into, to count allocations
// per thread.
#include "support/counting_allocations.hpp"

#include <cstdlib>
#include <new>

namespace {
thread_local std::size_t allocation_count = 0;

void* counted_malloc(std::size_t size) noexcept {
    ++allocation_count;
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

std::size_t spvtune::test::allocations() noexcept {
    return allocation_count;
}
