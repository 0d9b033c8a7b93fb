// An application with a shipped cache file: once a key's entry is loaded from the file, running
// the key again allocates nothing (the tuner answers from memory, never from the store again).
#include <memory>

#include <doctest/doctest.h>

#include <spvtune/cache/cache_file_store.hpp>

#include "cache/temp_directory.hpp"
#include "support/counting_allocations.hpp"
#include "tune/fakes.hpp"

namespace file_store_hit_allocation_test {

using namespace fakes;
using spvtune::cache::CacheFileStore;
using spvtune::cache::CacheFileStoreOptions;
using spvtune::test::allocations;

TEST_CASE("a key loaded from a cache file runs again without allocating") {
    spvtune::tune::testing::TempDirectory directory;
    Bench bench(
        {{.name = "naive", .ns = 300, .jitter = 3}, {.name = "tiled", .ns = 100, .jitter = 1}});
    const Set set = bench.make_set();
    FixedIdentityClient client{hardware("gpu-a")};
    {
        // Tuning writes the file (through the journal, as any save).
        Tuner tuner{"fake-op"};
        TunerOptions options;
        options.sampling = quick_sampling();
        options.store = std::make_shared<CacheFileStore>(directory.path());
        tuner.set_options(std::move(options));
        REQUIRE(tuner.execute(0, client, set, Inputs{}));
    }

    // The application: a read-only store over the same directory, never measuring.
    Tuner tuner{"fake-op"};
    TunerOptions options;
    options.store = std::make_shared<CacheFileStore>(directory.path(),
                                                     CacheFileStoreOptions{.read_only = true});
    options.miss_policy = MissPolicy::run_preferred;
    tuner.set_options(std::move(options));
    ExecutionInfo info;
    REQUIRE(tuner.execute(0, client, set, Inputs{}, &info));
    REQUIRE(info.source == LookupSource::store);

    const Inputs inputs{.value = 8};
    const std::size_t before = allocations();
    const Result<long, TuneError> out = tuner.execute(0, client, set, inputs, &info);
    const std::size_t after = allocations();
    CHECK(after == before);
    CHECK(out.value() == 16);
    CHECK(info.source == LookupSource::memory);
    CHECK(info.candidate == 1);  // the tuned winner, "tiled"
}

}  // namespace file_store_hit_allocation_test
