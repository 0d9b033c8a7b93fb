#include "worker/worker_environment.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

#include <doctest/doctest.h>

#include "support/scoped_env.hpp"

namespace worker_environment_test {

using spvtune::run::worker::worker_environment;

namespace {

bool holds(const std::vector<std::string>& environment, const std::string& variable) {
    return std::ranges::find(environment, variable) != environment.end();
}

}  // namespace

TEST_CASE("a worker starts with this process's environment") {
    ::setenv("SPVTUNE_WORKER_ENVIRONMENT_TEST", "kept", 1);
    const auto environment = worker_environment();
    ::unsetenv("SPVTUNE_WORKER_ENVIRONMENT_TEST");
    CHECK(holds(environment, "SPVTUNE_WORKER_ENVIRONMENT_TEST=kept"));
    CHECK(holds(environment, std::string("PATH=") + std::getenv("PATH")));
}

TEST_CASE("a sanitizer build's worker runs without ASan's quarantine, keeping the other options") {
    const char* before = std::getenv("ASAN_OPTIONS");
    const std::string saved = before != nullptr ? before : "";
    ::setenv("ASAN_OPTIONS", "detect_leaks=1", 1);
    const auto environment = worker_environment();
    if (before != nullptr) {
        ::setenv("ASAN_OPTIONS", saved.c_str(), 1);
    } else {
        ::unsetenv("ASAN_OPTIONS");
    }
#if defined(__SANITIZE_ADDRESS__)
    CHECK(holds(
        environment,
        "ASAN_OPTIONS=detect_leaks=1:quarantine_size_mb=0:thread_local_quarantine_size_kb=0"));
#else
    CHECK(holds(environment, "ASAN_OPTIONS=detect_leaks=1"));
#endif
    CHECK(std::ranges::count_if(environment, [](const std::string& variable) {
              return variable.starts_with("ASAN_OPTIONS=");
          }) == 1);
}

TEST_CASE(
    "a worker keeps freed megabytes and asks for huge pages, after which a user's tunables win") {
    const std::string ours =
        "glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=33554432:"
        "glibc.malloc.trim_threshold=268435456";
    const spvtune::test::ScopedEnv mmap_threshold("MALLOC_MMAP_THRESHOLD_", std::nullopt);
    const spvtune::test::ScopedEnv trim_threshold("MALLOC_TRIM_THRESHOLD_", std::nullopt);
    spvtune::test::ScopedEnv tunables("GLIBC_TUNABLES", std::nullopt);
    const auto plain = worker_environment();
    tunables.set("glibc.malloc.hugetlb=0");
    const auto users = worker_environment();
    tunables.set(std::nullopt);
    CHECK(holds(plain, "GLIBC_TUNABLES=" + ours));
    CHECK(holds(users, "GLIBC_TUNABLES=" + ours + ":glibc.malloc.hugetlb=0"));
    mmap_threshold.set("65536");
    // Its older name would lose to GLIBC_TUNABLES wherever that stands: leave the setting out.
    CHECK(holds(worker_environment(),
                "GLIBC_TUNABLES=glibc.malloc.hugetlb=1:glibc.malloc.trim_threshold=268435456"));
    for (const auto& environment : {plain, users}) {
        CHECK(std::ranges::count_if(environment, [](const std::string& variable) {
                  return variable.starts_with("GLIBC_TUNABLES=");
              }) == 1);
    }
}

}  // namespace worker_environment_test
