// `spvtune cache clear --key` with the exact key `tune` printed for a bucketed size: it selects
// the bucket the entry is stored under, and says which.
#include <string>

#include <doctest/doctest.h>

#include <spvtune/cache/cache_file.hpp>

#include "tune_fixture.hpp"

namespace cache_clear_bucket_test {

using namespace spvtune;
using namespace spvtune::test;

TEST_CASE("cache clear --key takes the key as tune printed it and names its bucket") {
    TuneFixture fixture;
    // n=16000 and n=16384 share the entry of bucket n=16384.
    const SpvtuneRun tuned = fixture.tune("shared_bucket.json", {"-q"});
    REQUIRE_MESSAGE(tuned.exit_code == 0, tuned.err);
    REQUIRE(fixture.cache_files().size() == 1);
    const auto file = fixture.cache_files().at(0);
    REQUIRE(cache::read_cache_file(file).entry_count() == 1);

    const SpvtuneRun missed = run_spvtune(fixture.scratch, {"cache", "clear", "--key", "n=70000",
                                                            "--cache-dir", fixture.cache.string()});
    CHECK(missed.exit_code == 2);
    CHECK(contains(missed.err, "no cache entry matches --key n=70000, nor its bucket"));
    CHECK(cache::read_cache_file(file).entry_count() == 1);

    const SpvtuneRun cleared =
        run_spvtune(fixture.scratch,
                    {"cache", "clear", "--key", "n=16000", "--cache-dir", fixture.cache.string()});
    CHECK_MESSAGE(cleared.exit_code == 0, cleared.err);
    CHECK(contains(cleared.out,
                   "--key n=16000 is stored in the bucket n=16384 (as tune buckets it at level "));
    CHECK(contains(cleared.out, "removed 1 entry"));
    CHECK(contains(cleared.out, "shared-bucket-test  n=16384"));
    CHECK(cache::read_cache_file(file).entry_count() == 0);
}

}  // namespace cache_clear_bucket_test
