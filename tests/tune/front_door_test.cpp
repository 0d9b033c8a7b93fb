// The example at the top of <spvtune/tune/tune.hpp>, compiled and run with that header alone (its
// sum, the key and the candidates, is in support/sum_example.hpp, shared with the cache example).
#include <span>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/tune/tune.hpp>

#include "support/sum_example.hpp"

namespace front_door_test {

namespace {

using namespace spvtune;
using front_door::Size;

tune::LocalTuner<Size, int> tuner("sum");

tune::Result<float, tune::TuneError> sum(int device, const tune::TuneClient& client,
                                         std::span<const float> x, tune::ExecutionInfo* info) {
    auto set = tuner.init(device, [] { return front_door::sum_candidates(); });
    return tuner.execute(device, client, *set, x, info);
}

}  // namespace

TEST_CASE("the front door's example tunes once, then answers from memory") {
    tune::HardwareIdentity host;
    host.key = "host";
    const tune::FixedIdentityClient client(host);
    const std::vector<float> x(1024, 0.5f);
    tune::ExecutionInfo info;
    const auto first = sum(0, client, x, &info);
    REQUIRE(first);
    CHECK(first.value() == doctest::Approx(512.0f));
    CHECK(info.source == tune::LookupSource::tuned);
    REQUIRE(info.entry);
    CHECK(info.entry->ranking.size() == 2);

    const auto second = sum(0, client, x, &info);
    REQUIRE(second);
    CHECK(info.source == tune::LookupSource::memory);
}

}  // namespace front_door_test
