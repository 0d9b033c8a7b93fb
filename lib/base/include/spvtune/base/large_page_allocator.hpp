#pragma once

#include <cstddef>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <vector>

namespace spvtune::base {

/// The size of a large (huge) page, and the least allocation LargePageAllocator places on them.
inline constexpr std::size_t large_page_bytes = std::size_t{2} << 20;

/// `bytes` (at least large_page_bytes) of uninitialised memory starting at a large-page boundary,
/// with the kernel asked to back it with transparent huge pages where it grants them: a block of
/// the same size freed before when one is kept, else fresh. Throws std::bad_alloc. Free it with
/// free_large_pages and the same size.
void* allocate_large_pages(std::size_t bytes);
/// Frees what allocate_large_pages(bytes) returned: keeps it for the next allocation of its size
/// while the blocks kept so far and it come to at most kept_large_pages_limit, else unmaps it.
void free_large_pages(void* memory, std::size_t bytes) noexcept;

/// The most bytes of freed large-page blocks kept for reuse. Each first touch of a fresh block is
/// a page fault and the kernel zeroing what it maps (on huge pages, 2 MiB at a time), which made
/// copying a 4 MiB buffer into fresh memory cost several milliseconds; reused, it is a memcpy.
inline constexpr std::size_t kept_large_pages_limit = std::size_t{128} << 20;
/// The bytes of freed blocks kept for reuse now (0 under AddressSanitizer, which keeps none so
/// that it still reports a use after free).
std::size_t kept_large_pages_bytes() noexcept;
/// Unmaps every kept block: for an application done with buffers of megabytes for a while.
void release_kept_large_pages() noexcept;

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

/// Bytes of a buffer's contents kept on the host, on large pages once they are large: a
/// std::vector whose copies are one memcpy. A vector with an allocator of its own is copied
/// element by element (libstdc++ keeps memmove for std::allocator), and at -O2 that loop of
/// single bytes took 2.1 ms for 4 MiB against 0.15 ms (scripts/bench-large-bytes.sh).
class LargeBytes : public std::vector<std::byte, LargePageAllocator<std::byte>> {
    using Base = std::vector<std::byte, LargePageAllocator<std::byte>>;

  public:
    using Base::Base;
    LargeBytes() = default;
    LargeBytes(const LargeBytes& other) : Base(other.size()) { copy_from(other); }
    LargeBytes(LargeBytes&&) noexcept = default;
    LargeBytes& operator=(const LargeBytes& other) {
        if (this != &other) {
            // Emptied first: growing past the capacity would otherwise move the old bytes into
            // the new block one by one, only for them to be overwritten.
            Base::clear();
            Base::resize(other.size());
            copy_from(other);
        }
        return *this;
    }
    LargeBytes& operator=(LargeBytes&&) noexcept = default;
    ~LargeBytes() = default;

  private:
    void copy_from(const LargeBytes& other) noexcept {
        if (!other.empty()) {
            std::memcpy(data(), other.data(), other.size());
        }
    }
};

}  // namespace spvtune::base
