#pragma once

#include <cstddef>
#include <limits>
#include <memory>
#include <new>
#include <vector>

namespace spvtune::base {

/// The size of a large (huge) page, and the least allocation LargePageAllocator places on them.
inline constexpr std::size_t large_page_bytes = std::size_t{2} << 20;

/// `bytes` (at least large_page_bytes) of zeroed memory starting at a large-page boundary, with
/// the kernel asked to back it with transparent huge pages where it grants them. Throws
/// std::bad_alloc. Free it with free_large_pages and the same size.
void* allocate_large_pages(std::size_t bytes);
/// Frees what allocate_large_pages(bytes) returned.
void free_large_pages(void* memory, std::size_t bytes) noexcept;

/// An allocator for buffer contents of megabytes. Every first touch of fresh memory takes a page
/// fault, one per 4 KiB page; in a virtual machine each costs about 10 us, so 10 ms before a
/// 4 MiB buffer's contents are even written, while on huge pages that buffer takes two faults.
/// Allocations below large_page_bytes are ordinary ones.
template <class T>
class LargePageAllocator {
  public:
    using value_type = T;

    LargePageAllocator() noexcept = default;
    template <class U>
    LargePageAllocator(const LargePageAllocator<U>& /*other*/) noexcept {}

    T* allocate(std::size_t count) {
        if (count > std::numeric_limits<std::size_t>::max() / sizeof(T)) {
            throw std::bad_array_new_length();
        }
        if (count * sizeof(T) >= large_page_bytes) {
            return static_cast<T*>(allocate_large_pages(count * sizeof(T)));
        }
        return std::allocator<T>{}.allocate(count);
    }

    void deallocate(T* memory, std::size_t count) noexcept {
        if (count * sizeof(T) >= large_page_bytes) {
            free_large_pages(memory, count * sizeof(T));
        } else {
            std::allocator<T>{}.deallocate(memory, count);
        }
    }

    template <class U>
    bool operator==(const LargePageAllocator<U>& /*other*/) const noexcept {
        return true;
    }
};

/// Bytes of a buffer's contents kept on the host, on large pages once they are large.
using LargeBytes = std::vector<std::byte, LargePageAllocator<std::byte>>;

}  // namespace spvtune::base
