// Copies of 4 MiB buffer contents, as the tuner makes of a reference's outputs: LargeBytes
// against the plain std::vector with the same allocator (copied element by element) and
// against std::vector<std::byte> (memmove), and into a block freed before against a fresh one.
//
// usage: spvtune_large_bytes_bench [MIB] [REPEATS]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

#include <spvtune/base/large_page_allocator.hpp>

namespace {

using spvtune::base::LargeBytes;
using Clock = std::chrono::steady_clock;

/// The median of `repeats` timings of `body`, in milliseconds.
double median_ms(int repeats, const std::function<void()>& body) {
    std::vector<double> times;
    for (int i = 0; i < repeats; ++i) {
        const auto start = Clock::now();
        body();
        times.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

/// Keeps the optimiser from dropping a copy nobody reads.
void touch(const std::byte* data) {
    asm volatile("" : : "r"(data) : "memory");
}

}  // namespace

int main(int argc, char** argv) {
    const std::size_t bytes = (argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 4) << 20;
    const int repeats = argc > 2 ? std::atoi(argv[2]) : 21;
    const LargeBytes source(bytes, std::byte{1});
    const std::vector<std::byte, spvtune::base::LargePageAllocator<std::byte>>& as_vector = source;
    const std::vector<std::byte> plain(source.begin(), source.end());

    const double large = median_ms(repeats, [&] {
        const LargeBytes copy = source;
        touch(copy.data());
    });
    const double element_wise = median_ms(repeats, [&] {
        const std::vector<std::byte, spvtune::base::LargePageAllocator<std::byte>> copy = as_vector;
        touch(copy.data());
    });
    const double memmove = median_ms(repeats, [&] {
        const std::vector<std::byte> copy = plain;
        touch(copy.data());
    });
    // Every copy held, so that each takes a block never used before.
    std::vector<LargeBytes> held;
    held.reserve(static_cast<std::size_t>(repeats));
    const double fresh = median_ms(repeats, [&] {
        held.push_back(source);
        touch(held.back().data());
    });
    held.clear();
    std::printf("copy of %zu MiB, median of %d:\n", bytes >> 20, repeats);
    std::printf("  LargeBytes (a block freed before) %8.3f ms\n", large);
    std::printf("  element by element (same allocator) %6.3f ms  ratio %.2f\n", element_wise,
                element_wise / large);
    std::printf("  std::vector<std::byte> (memmove)  %8.3f ms  ratio %.2f\n", memmove,
                memmove / large);
    std::printf("  LargeBytes into a fresh block      %8.3f ms  ratio %.2f\n", fresh,
                fresh / large);
    return 0;
}
