#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <new>
#include <thread>
#include <utility>
#include <vector>

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

TEST_CASE("copies of buffer contents hold the same bytes, whatever the target held") {
    LargeBytes source(large_page_bytes + 777);
    for (std::size_t i = 0; i < source.size(); ++i) {
        source[i] = static_cast<std::byte>(i * 7 + 1);
    }
    LargeBytes larger(3 * large_page_bytes, std::byte{5});
    larger = source;
    CHECK(larger == source);
    LargeBytes smaller(10, std::byte{5});
    smaller = source;
    CHECK(smaller == source);
    const LargeBytes& same = smaller;
    smaller = same;
    CHECK(smaller == source);
    LargeBytes empty;
    smaller = empty;
    CHECK(smaller.empty());
    const LargeBytes copy_of_empty = empty;
    CHECK(copy_of_empty.empty());
    LargeBytes moved = std::move(larger);
    CHECK(moved == source);
}

#if !defined(__SANITIZE_ADDRESS__)
// Under AddressSanitizer nothing is kept, so that it still reports a use after free.

TEST_CASE("a freed block is handed to the next allocation of its size, and only of its size") {
    spvtune::base::release_kept_large_pages();
    CHECK(spvtune::base::kept_large_pages_bytes() == 0);
    spvtune::base::LargePageAllocator<std::byte> allocator;
    const std::size_t size = 3 * large_page_bytes + 1;
    std::byte* freed = allocator.allocate(size);
    // A mark that a block mapped afresh (zeroed by the kernel) would not hold.
    freed[size - 1] = std::byte{0x5a};
    allocator.deallocate(freed, size);
    CHECK(spvtune::base::kept_large_pages_bytes() >= 4 * large_page_bytes);
    std::byte* other_size = allocator.allocate(5 * large_page_bytes);
    CHECK(other_size != freed);
    std::byte* same_size = allocator.allocate(size);
    CHECK(same_size == freed);
    CHECK(same_size[size - 1] == std::byte{0x5a});
    allocator.deallocate(same_size, size);
    allocator.deallocate(other_size, 5 * large_page_bytes);
    // A vector value-initialises what it is given: on a reused block it reads zero all the same.
    const LargeBytes reused(size);
    CHECK(reused.data() == freed);
    CHECK(std::all_of(reused.begin(), reused.end(), [](std::byte b) { return b == std::byte{0}; }));
}

TEST_CASE("freed blocks are kept only up to the limit, and the rest unmapped") {
    using spvtune::base::kept_large_pages_limit;
    spvtune::base::LargePageAllocator<std::byte> allocator;
    const std::size_t block = 2 * large_page_bytes;
    // Untouched, so that mapping them costs no page faults.
    std::vector<std::byte*> blocks;
    for (std::size_t i = 0; i < kept_large_pages_limit / block + 3; ++i) {
        blocks.push_back(allocator.allocate(block));
    }
    for (std::byte* memory : blocks) {
        allocator.deallocate(memory, block);
    }
    CHECK(spvtune::base::kept_large_pages_bytes() <= kept_large_pages_limit);
    CHECK(spvtune::base::kept_large_pages_bytes() > kept_large_pages_limit - block);
    spvtune::base::release_kept_large_pages();
    CHECK(spvtune::base::kept_large_pages_bytes() == 0);
}

#endif

TEST_CASE("threads that allocate and free blocks of one size never share one") {
    const auto churn = [](std::byte mark, bool& intact) {
        for (int round = 0; round < 40; ++round) {
            LargeBytes bytes(2 * large_page_bytes, mark);
            std::this_thread::yield();
            intact = intact && std::all_of(bytes.begin(), bytes.end(),
                                           [&](std::byte b) { return b == mark; });
        }
    };
    bool first_intact = true;
    bool second_intact = true;
    std::thread first(churn, std::byte{0x11}, std::ref(first_intact));
    std::thread second(churn, std::byte{0x22}, std::ref(second_intact));
    first.join();
    second.join();
    CHECK(first_intact);
    CHECK(second_intact);
}

}  // namespace large_page_allocator_test
