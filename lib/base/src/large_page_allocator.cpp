#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <mutex>
#include <numeric>
#include <sys/mman.h>
#include <vector>

#include <spvtune/base/large_page_allocator.hpp>

namespace spvtune::base {

namespace {

/// Sizes whose rounding up (and the large page more that alignment takes) would wrap around.
void refuse_impossible(std::size_t bytes) {
    if (bytes > std::numeric_limits<std::size_t>::max() - 2 * large_page_bytes) {
        throw std::bad_alloc();
    }
}

}  // namespace

// AddressSanitizer does not watch memory mapped outside its allocator, so there the memory comes
// from it, aligned alike, and its checks of every access stay.
#if defined(__SANITIZE_ADDRESS__)

void* allocate_large_pages(std::size_t bytes) {
    refuse_impossible(bytes);
    // The exact size, so that ASan still sees an access past the end.
    void* memory = ::operator new (bytes, std::align_val_t{large_page_bytes});
    std::memset(memory, 0, bytes);
    return memory;
}

void free_large_pages(void* memory, std::size_t /*bytes*/) noexcept {
    ::operator delete (memory, std::align_val_t{large_page_bytes});
}

std::size_t kept_large_pages_bytes() noexcept {
    return 0;
}

void release_kept_large_pages() noexcept {}

#else

namespace {

std::uintptr_t round_up(std::uintptr_t value, std::uintptr_t multiple) {
    return (value + multiple - 1) / multiple * multiple;
}

/// Freed blocks kept for reuse, the most recently freed last (its pages the likeliest to be in
/// the caches).
struct KeptBlocks {
    struct Block {
        void* memory;
        std::size_t size;  ///< rounded up to whole large pages
    };
    std::mutex mutex;
    std::vector<Block> blocks;

    /// Their total size; call with the mutex held. At most 64 blocks fit the limit.
    std::size_t bytes() const {
        return std::accumulate(
            blocks.begin(), blocks.end(), std::size_t{0},
            [](std::size_t sum, const Block& block) { return sum + block.size; });
    }
};

KeptBlocks& kept_blocks() {
    // Never destroyed: a LargeBytes in another static object may be freed after this one would
    // have been.
    static auto* const kept = new KeptBlocks;
    return *kept;
}

void* take_kept(std::size_t size) {
    KeptBlocks& kept = kept_blocks();
    std::lock_guard lock(kept.mutex);
    const auto found =
        std::find_if(kept.blocks.rbegin(), kept.blocks.rend(),
                     [&](const KeptBlocks::Block& block) { return block.size == size; });
    if (found == kept.blocks.rend()) {
        return nullptr;
    }
    void* memory = found->memory;
    kept.blocks.erase(std::next(found).base());
    return memory;
}

bool keep(void* memory, std::size_t size) noexcept {
    KeptBlocks& kept = kept_blocks();
    std::lock_guard lock(kept.mutex);
    if (size > kept_large_pages_limit - kept.bytes()) {
        return false;
    }
    try {
        kept.blocks.push_back({memory, size});
    } catch (const std::bad_alloc&) {
        return false;
    }
    return true;
}

}  // namespace

std::size_t kept_large_pages_bytes() noexcept {
    KeptBlocks& kept = kept_blocks();
    std::lock_guard lock(kept.mutex);
    return kept.bytes();
}

void release_kept_large_pages() noexcept {
    KeptBlocks& kept = kept_blocks();
    std::lock_guard lock(kept.mutex);
    for (const KeptBlocks::Block& block : kept.blocks) {
        ::munmap(block.memory, block.size);
    }
    kept.blocks.clear();
}

void* allocate_large_pages(std::size_t bytes) {
    refuse_impossible(bytes);
    const std::size_t size = round_up(bytes, large_page_bytes);
    if (void* reused = take_kept(size)) {
        return reused;
    }
    // A large page more than asked for, so that a boundary lies within the first one; the slack
    // before and after the aligned part is unmapped at once.
    const std::size_t mapped_size = size + large_page_bytes;
    void* mapped =
        ::mmap(nullptr, mapped_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED) {
        throw std::bad_alloc();
    }
    const auto start = reinterpret_cast<std::uintptr_t>(mapped);
    const std::uintptr_t aligned = round_up(start, large_page_bytes);
    if (aligned > start) {
        ::munmap(mapped, aligned - start);
    }
    if (const std::uintptr_t end = start + mapped_size; end > aligned + size) {
        ::munmap(reinterpret_cast<void*>(aligned + size), end - (aligned + size));
    }
    // Only advice: where transparent huge pages are off, the memory works as 4 KiB pages.
    ::madvise(reinterpret_cast<void*>(aligned), size, MADV_HUGEPAGE);
    return reinterpret_cast<void*>(aligned);
}

void free_large_pages(void* memory, std::size_t bytes) noexcept {
    const std::size_t size = round_up(bytes, large_page_bytes);
    if (!keep(memory, size)) {
        ::munmap(memory, size);
    }
}

#endif

}  // namespace spvtune::base
