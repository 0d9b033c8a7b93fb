#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/cache/cache_file_store.hpp>
#include <spvtune/cache/cache_lookup.hpp>

#include "cache/cache_samples.hpp"
#include "cache/temp_directory.hpp"

namespace cache_lookup_test {

using namespace spvtune::tune;

using namespace spvtune::cache;
using namespace spvtune::tune::testing;

namespace {

const HardwareIdentity shipped = sample_hardware("gpu-driver-1", "1.0.0");
const HardwareIdentity new_driver = sample_hardware("gpu-driver-2", "2.0.0");
const HardwareIdentity other_device = sample_hardware("other-gpu", "1.0.0", 0x9999);

// A directory of shipped caches holding one file, for `shipped`, with one entry.
void ship(const std::filesystem::path& directory) {
    CacheFileStore store(directory);
    REQUIRE(store
                .save(shipped, sample_address("1"), sample_candidates(), "n=1",
                      sample_entry("tiled_32x8"))
                .stored);
}

const WarningSink quiet = [](const std::string&) {};

}  // namespace

TEST_CASE("lookup: the exact identity is used as is") {
    TempDirectory directory;
    ship(directory.path());
    for (const auto policy : {DriverMismatch::refuse, DriverMismatch::allow}) {
        const auto found = find_cache_file(directory.path(), shipped, policy, quiet);
        REQUIRE(found);
        CHECK(found->match == CacheMatch::exact);
        CHECK(found->file == directory.path() / "gpu-driver-1.json");
    }
}

TEST_CASE("lookup: another driver of the same device only when the caller allows it") {
    TempDirectory directory;
    ship(directory.path());
    CHECK_FALSE(find_cache_file(directory.path(), new_driver, DriverMismatch::refuse, quiet));
    const auto found = find_cache_file(directory.path(), new_driver, DriverMismatch::allow, quiet);
    REQUIRE(found);
    CHECK(found->match == CacheMatch::driver_mismatch);
    CHECK(found->file == directory.path() / "gpu-driver-1.json");
    CHECK(found->file_hardware.driver_version == "1.0.0");
    CHECK(found->description.find("driver mismatch") != std::string::npos);
}

TEST_CASE("lookup: other hardware is a miss whatever the policy") {
    TempDirectory directory;
    ship(directory.path());
    CHECK_FALSE(find_cache_file(directory.path(), other_device, DriverMismatch::allow, quiet));
    CHECK_FALSE(
        find_cache_file(directory.path() / "absent", shipped, DriverMismatch::allow, quiet));
}

TEST_CASE("lookup: a file renamed to another identity's name does not count as exact") {
    TempDirectory directory;
    ship(directory.path());
    std::filesystem::rename(directory.path() / "gpu-driver-1.json",
                            directory.path() / "gpu-driver-2.json");
    const auto found = find_cache_file(directory.path(), new_driver, DriverMismatch::allow, quiet);
    REQUIRE(found);
    CHECK(found->match == CacheMatch::driver_mismatch);
}

TEST_CASE("lookup: unreadable files are skipped with a warning and left alone") {
    TempDirectory directory;
    ship(directory.path());
    write_bytes(directory.path() / "broken.json", "{");
    std::vector<std::string> warnings;
    const auto found = find_cache_file(directory.path(), new_driver, DriverMismatch::allow,
                                       [&](const std::string& w) { warnings.push_back(w); });
    CHECK(found);
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].find("broken.json") != std::string::npos);
    CHECK(read_bytes(directory.path() / "broken.json") == "{");
}

TEST_CASE("a store allowed to use another driver's cache answers from it and says so") {
    TempDirectory directory;
    ship(directory.path());
    std::vector<std::string> warnings;
    CacheFileStore allowing(directory.path(), {DriverMismatch::allow, [&](const std::string& w) {
                                                   warnings.push_back(w);
                                               }});
    const auto entry = allowing.load(new_driver, sample_address("1"));
    REQUIRE(entry);
    CHECK(entry->winner_name == "tiled_32x8");
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].find("driver mismatch") != std::string::npos);
    CHECK_FALSE(allowing.load(other_device, sample_address("1")));

    CacheFileStore refusing(directory.path(), {DriverMismatch::refuse, quiet});
    CHECK_FALSE(refusing.load(new_driver, sample_address("1")));
}

}  // namespace cache_lookup_test
