#include "worker/worker_environment.hpp"

#include <cstdlib>
#include <string_view>
#include <unistd.h>

namespace spvtune::run::worker {
namespace {

#if defined(__SANITIZE_ADDRESS__)
// The worker runs the device. On lavapipe every compute workgroup slice allocates a 24-byte,
// 4 KiB-aligned coroutine frame (about 200,000 in one small tune), each taking a 10 KiB chunk
// of ASan's heap. The quarantine counts the 24 bytes, not the chunk, so it holds every frame
// and the worker maps about 2 GB of fresh heap per tune: 4x its CPU time, and most of the
// sanitizer build's test time. Its workers therefore run without a quarantine (freed blocks
// are still poisoned until reused). The code a worker runs is also run in process by the
// library tests and by `tune --in-process`, with the quarantine on; only the tests judged on
// measured times run without it, as workers do (tests/CMakeLists.txt gives them these options).
constexpr std::string_view sanitizer_options =
    "quarantine_size_mb=0:thread_local_quarantine_size_kb=0";
#else
constexpr std::string_view sanitizer_options;
#endif

constexpr std::string_view sanitizer_variable = "ASAN_OPTIONS=";

// The worker's C library keeps allocations of up to 32 MiB in its heap, on transparent huge
// pages, and keeps what is freed there for the next key. Every first touch of fresh memory is a
// page fault per 4 KiB page, about 10 us in a virtual machine: a 4 MiB output read back, sent
// and checked took 10 ms per copy, most of a checked run's cost on lavapipe, whose device
// memory is also the worker's heap. Later settings win, so a user's own go after these.
constexpr std::string_view allocator_variable = "GLIBC_TUNABLES=";

/// The allocator settings, less those a user set by their older names (which GLIBC_TUNABLES
/// would override wherever it stands).
std::string allocator_settings() {
    std::string settings = "glibc.malloc.hugetlb=1";
    if (std::getenv("MALLOC_MMAP_THRESHOLD_") == nullptr) {
        settings += ":glibc.malloc.mmap_threshold=33554432";
    }
    if (std::getenv("MALLOC_TRIM_THRESHOLD_") == nullptr) {
        settings += ":glibc.malloc.trim_threshold=268435456";
    }
    return settings;
}

}  // namespace

std::vector<std::string> worker_environment() {
    std::vector<std::string> environment;
    bool options_given = false;
    bool tunables_given = false;
    for (char** entry = ::environ; *entry != nullptr; ++entry) {
        std::string variable(*entry);
        if (variable.starts_with(allocator_variable)) {
            const std::string users = variable.substr(allocator_variable.size());
            variable = std::string(allocator_variable) + allocator_settings() +
                       (users.empty() ? "" : ":") + users;
            tunables_given = true;
        }
        if (!sanitizer_options.empty() && variable.starts_with(sanitizer_variable)) {
            // Later options win, so the worker's come last.
            variable += (variable.size() > sanitizer_variable.size() ? ":" : "");
            variable += sanitizer_options;
            options_given = true;
        }
        environment.push_back(std::move(variable));
    }
    if (!tunables_given) {
        environment.push_back(std::string(allocator_variable) + allocator_settings());
    }
    if (!sanitizer_options.empty() && !options_given) {
        environment.push_back(std::string(sanitizer_variable) + std::string(sanitizer_options));
    }
    return environment;
}

}  // namespace spvtune::run::worker
