// The example at the top of <spvtune/cache/cache.hpp>, compiled and run with that header alone:
// a tuner whose results persist in a cache directory, and the file it wrote found and read back
// as a shipped cache would be.
#include <cstdint>
#include <memory>
#include <numeric>
#include <span>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/cache/cache.hpp>

#include "cache/temp_directory.hpp"

namespace cache_front_door {

struct Size {
    std::uint64_t n = 0;
    friend bool operator==(const Size&, const Size&) = default;
};
std::string to_string(const Size& size) {
    return "n=" + std::to_string(size.n);
}
void to_json(nlohmann::json& json, const Size& size) {
    json = {{"n", size.n}};
}
void from_json(const nlohmann::json& json, Size& size) {
    json.at("n").get_to(size.n);
}

}  // namespace cache_front_door

template <>
struct std::hash<cache_front_door::Size> {
    std::size_t operator()(const cache_front_door::Size& size) const noexcept {
        return std::hash<std::uint64_t>{}(size.n);
    }
};

namespace {

using namespace spvtune;
using cache_front_door::Size;
using Set = tune::TunableSet<Size, std::span<const float>, float>;

tune::Result<float> sum_scalar(std::span<const float> x) {
    return std::accumulate(x.begin(), x.end(), 0.0f);
}

tune::Result<float> sum_pairs(std::span<const float> x) {
    float even = 0;
    float odd = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        (i % 2 == 0 ? even : odd) += x[i];
    }
    return even + odd;
}

Set sum_candidates() {
    Set s([](std::span<const float> x) { return Size{x.size()}; });
    s.add({"scalar", "v1", &sum_scalar, {}, {}, {}});
    s.add({"pairs", "v1", &sum_pairs, {}, {}, {}});
    return s;
}

// One process's view: a tuner whose store is the cache directory.
tune::LookupSource sum_once(const std::filesystem::path& directory, const tune::TuneClient& client,
                            std::span<const float> x) {
    tune::TunerOptions options;
    options.store = std::make_shared<cache::CacheFileStore>(directory);
    tune::LocalTuner<Size, int> tuner("sum", options);
    auto set = tuner.init(0, [] { return sum_candidates(); });
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
