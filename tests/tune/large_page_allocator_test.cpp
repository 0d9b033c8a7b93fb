#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <new>

#include <doctest/doctest.h>

#include <spvtune/base/large_page_allocator.hpp>

#include "support/huge_page_advice.hpp"

namespace large_page_allocator_test {

using spvtune::base::large_page_bytes;
using spvtune::base::LargeBytes;

TEST_CASE("buffer contents of megabytes start on a large page, zeroed, advised for huge pages") {
    const std::size_t size = 3 * large_page_bytes + 12345;
    LargeBytes bytes(size);
    CHECK(reinterpret_cast<std::uintptr_t>(bytes.data()) % large_page_bytes == 0);
    CHECK(std::all_of(bytes.begin(), bytes.end(), [](std::byte b) { return b == std::byte{0}; }));
    bytes.back() = std::byte{7};
    bytes.front() = std::byte{9};
    const LargeBytes copy = bytes;
    CHECK(copy == bytes);
    CHECK(reinterpret_cast<std::uintptr_t>(copy.data()) % large_page_bytes == 0);
#if !defined(__SANITIZE_ADDRESS__)
    // Under AddressSanitizer they come from its allocator, aligned alike but not advised.
    if (spvtune::test::kernel_has_huge_pages()) {
        CHECK(spvtune::test::huge_page_advice(bytes.data()).holds_address);
        CHECK(spvtune::test::huge_page_advice(copy.data() + size - 1).holds_address);
    }
#endif
}

TEST_CASE("a size that cannot be placed on large pages is refused, not wrapped around") {
    spvtune::base::LargePageAllocator<std::byte> allocator;
    CHECK_THROWS_AS(static_cast<void>(allocator.allocate(SIZE_MAX - 100)), std::bad_alloc);
    CHECK_THROWS_AS(static_cast<void>(
                        spvtune::base::LargePageAllocator<std::uint64_t>{}.allocate(SIZE_MAX / 4)),
                    std::bad_array_new_length);
}

TEST_CASE("small contents are ordinary allocations, and growing past a large page moves them") {
    LargeBytes bytes(1000, std::byte{3});
    bytes.resize(large_page_bytes + 1, std::byte{4});
    CHECK(reinterpret_cast<std::uintptr_t>(bytes.data()) % large_page_bytes == 0);
    CHECK(bytes[999] == std::byte{3});
    CHECK(bytes[1000] == std::byte{4});
    CHECK(bytes.back() == std::byte{4});
    bytes.resize(10);
    bytes.shrink_to_fit();
    CHECK(bytes.size() == 10);
    CHECK(bytes[9] == std::byte{3});
}

}  // namespace large_page_allocator_test
