// The example at the top of <spvtune/tune/tune.hpp>, compiled and run with that header alone.
#include <cstdint>
#include <numeric>
#include <span>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/tune/tune.hpp>

namespace front_door {

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

}  // namespace front_door

template <>
struct std::hash<front_door::Size> {
    std::size_t operator()(const front_door::Size& size) const noexcept {
        return std::hash<std::uint64_t>{}(size.n);
    }
};

namespace {

using namespace spvtune;
using front_door::Size;
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

tune::LocalTuner<Size, int> tuner("sum");

tune::Result<float, tune::TuneError> sum(int device, const tune::TuneClient& client,
                                         std::span<const float> x, tune::ExecutionInfo* info) {
    auto set = tuner.init(device, [] {
        Set s([](std::span<const float> x) { return Size{x.size()}; });
        s.add({"scalar", "v1", &sum_scalar, {}, {}, {}});  // name, digest, run
        s.add({"pairs", "v1", &sum_pairs, {}, {}, {}});
        return s;
    });
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
