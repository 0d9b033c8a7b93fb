#pragma once

// The tuner of <spvtune/tune/tune.hpp>'s example: a sum over floats keyed by its length, with two
// candidates. The tune and cache front-door tests run it; it uses only the tuner's front door.
#include <cstdint>
#include <functional>
#include <numeric>
#include <span>
#include <string>

#include <spvtune/tune/tune.hpp>

namespace front_door {

struct Size {
    std::uint64_t n = 0;
    friend bool operator==(const Size&, const Size&) = default;
};
inline std::string to_string(const Size& size) {
    return "n=" + std::to_string(size.n);
}
inline void to_json(nlohmann::json& json, const Size& size) {
    json = {{"n", size.n}};
}
inline void from_json(const nlohmann::json& json, Size& size) {
    json.at("n").get_to(size.n);
}

}  // namespace front_door

template <>
struct std::hash<front_door::Size> {
    std::size_t operator()(const front_door::Size& size) const noexcept {
        return std::hash<std::uint64_t>{}(size.n);
    }
};

namespace front_door {

using SumSet = spvtune::tune::TunableSet<Size, std::span<const float>, float>;

inline spvtune::tune::Result<float> sum_scalar(std::span<const float> x) {
    return std::accumulate(x.begin(), x.end(), 0.0f);
}

inline spvtune::tune::Result<float> sum_pairs(std::span<const float> x) {
    float even = 0;
    float odd = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        (i % 2 == 0 ? even : odd) += x[i];
    }
    return even + odd;
}

/// The example's tunable set: "scalar" and "pairs", keyed by the input's length.
inline SumSet sum_candidates() {
    SumSet s([](std::span<const float> x) { return Size{x.size()}; });
    s.add({"scalar", "v1", &sum_scalar, {}, {}, {}});  // name, digest, run
    s.add({"pairs", "v1", &sum_pairs, {}, {}, {}});
    return s;
}

}  // namespace front_door
