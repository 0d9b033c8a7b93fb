#include <chrono>
#include <stdexcept>
#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <spvtune/tune/sampling.hpp>
#include <spvtune/tune/tunable_set.hpp>

#include "tune/fakes.hpp"

namespace tunable_set_test {

using namespace spvtune::tune;

namespace {

fakes::Set set_of(std::initializer_list<std::pair<const char*, const char*>> candidates) {
    fakes::Set set(fakes::key_of);
    for (const auto& [name, digest] : candidates) {
        set.add(
            {name, digest, [](const fakes::Inputs&) -> Result<long> { return 0L; }, {}, {}, {}});
    }
    return set;
}

}  // namespace

TEST_CASE("the checksum is FNV-1a over length-prefixed names and digests, platform-independent") {
    // Computed independently (Python) from the documented byte layout.
    CHECK(set_of({{"tiled", "sha:1"}, {"naive", "sha:2"}}).checksum() == 0xa50aba598be73c17ULL);
}

TEST_CASE("the checksum covers names, digests and order") {
    const auto base = set_of({{"tiled", "sha:1"}, {"naive", "sha:2"}}).checksum();
    CHECK(set_of({{"tiled", "sha:1"}, {"naive", "sha:3"}}).checksum() != base);
    CHECK(set_of({{"tiled2", "sha:1"}, {"naive", "sha:2"}}).checksum() != base);
    CHECK(set_of({{"naive", "sha:2"}, {"tiled", "sha:1"}}).checksum() != base);
    // Moving a character between fields changes it too (fields are length-prefixed).
    CHECK(set_of({{"tile", "dsha:1"}, {"naive", "sha:2"}}).checksum() != base);
    CHECK(set_of({{"tiled", "sha:1"}, {"naive", "sha:2"}}).checksum() == base);
}

TEST_CASE("a set rejects unnamed, run-less and duplicate candidates") {
    fakes::Set set(fakes::key_of);
    const auto run = [](const fakes::Inputs&) -> Result<long> { return 1L; };
    CHECK_THROWS_AS(set.add({"", "d", run, {}, {}, {}}), std::invalid_argument);
    CHECK_THROWS_AS(set.add({"a", "d", {}, {}, {}, {}}), std::invalid_argument);
    set.add({"a", "d", run, {}, {}, {}});
    CHECK_THROWS_AS(set.add({"a", "e", run, {}, {}, {}}), std::invalid_argument);
    CHECK(set.size() == 1);
    CHECK(set.descriptions().front().content_digest == "d");
}

TEST_CASE("a candidate without a measure hook is timed on the host clock around run") {
    int runs = 0;
    fakes::Set set(fakes::key_of);
    set.add({"host",
             "d",
             [&runs](const fakes::Inputs&) -> Result<long> {
                 ++runs;
                 return 1L;
             },
             {},
             {},
             {}});
    const Result<Sample> sample = set.measure(0, fakes::Inputs{});
    REQUIRE(sample);
    CHECK(sample.value().method == TimingMethod::host_clock);
    CHECK(sample.value().ns_per_run >= 0);
    CHECK(runs >= 1);
}

TEST_CASE("a candidate that throws reports an error instead of escaping") {
    fakes::Set set(fakes::key_of);
    set.add({"thrower",
             "d",
             [](const fakes::Inputs&) -> Result<long> { throw std::runtime_error("device lost"); },
             {},
             {},
             {}});
    const Result<long> out = set.run(0, fakes::Inputs{});
    REQUIRE_FALSE(out);
    CHECK(out.error() == "threw: device lost");
    const Result<Sample> sample = set.measure(0, fakes::Inputs{});
    REQUIRE_FALSE(sample);
    CHECK(sample.error() == "threw: device lost");
}

TEST_CASE("sampling settings round-trip through JSON") {
    SamplingSettings settings = SamplingSettings::fixed(3, 17);
    settings.time_budget = std::chrono::milliseconds(250);
    const nlohmann::json json = settings;
    CHECK(json.at("mode") == "fixed");
    CHECK(json.at("warmup_runs") == 3);
    CHECK(json.at("max_samples") == 17);
    CHECK(json.at("time_budget_ms") == 250);
    CHECK(json.get<SamplingSettings>() == settings);
    CHECK(nlohmann::json(SamplingSettings{}).at("time_budget_ms").is_null());
    CHECK_THROWS_AS(nlohmann::json({{"mode", "fastest"}}).get<SamplingSettings>(),
                    std::invalid_argument);
}

}  // namespace tunable_set_test
