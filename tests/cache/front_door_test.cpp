// The example at the top of <spvtune/cache/cache.hpp>, compiled and run with that header alone
// (and the tune example's sum, support/sum_example.hpp): a tuner whose results persist in a cache
// directory, and the file it wrote found and read back as a shipped cache would be.
#include <filesystem>
#include <memory>
#include <span>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/cache/cache.hpp>

#include "cache/temp_directory.hpp"
#include "support/sum_example.hpp"

namespace front_door_test {

namespace {

using namespace spvtune;
using front_door::Size;

// One process's view: a tuner whose store is the cache directory.
tune::LookupSource sum_once(const std::filesystem::path& directory, const tune::TuneClient& client,
                            std::span<const float> x) {
    tune::TunerOptions options;
    options.store = std::make_shared<cache::CacheFileStore>(directory);
    tune::LocalTuner<Size, int> tuner("sum", options);
    auto set = tuner.init(0, [] { return front_door::sum_candidates(); });
    tune::ExecutionInfo info;
    const auto out = tuner.execute(0, client, *set, x, &info);
    REQUIRE(out);
    CHECK(out.value() == doctest::Approx(512.0f));
    return info.source;
}

}  // namespace

TEST_CASE("the cache front door's example: a tuned key persists, and its file reads back") {
    const tune::testing::TempDirectory scratch;
    const auto directory =
        cache::choose_cache_directory(cache::cache_directory_sources(scratch.path() / "cache"));
    tune::HardwareIdentity host;
    host.key = "host-0000000000000000";
    const tune::FixedIdentityClient client(host);
    const std::vector<float> x(1024, 0.5f);

    CHECK(sum_once(directory, client, x) == tune::LookupSource::tuned);
    // A second process (a fresh tuner and store) finds the winner in the file.
    CHECK(sum_once(directory, client, x) == tune::LookupSource::store);

    const auto found =
        cache::find_cache_file(directory, client.hardware_identity(), cache::DriverMismatch::allow);
    REQUIRE(found);
    CHECK(found->match == cache::CacheMatch::exact);
    const cache::CacheDocument document = cache::read_cache_file(found->file);
    REQUIRE(document.entry_count() == 1);
    const auto& list = document.tuners.at("sum").begin()->second;
    const cache::CacheKeyRecord& record = list.entries.begin()->second;
    CHECK(record.printed_key == "n=1024");
    CHECK((record.entry.winner_name == "scalar" || record.entry.winner_name == "pairs"));
}

}  // namespace front_door_test
