#include <cstdint>
#include <functional>
#include <ostream>
#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <spvtune/tune/key.hpp>

#include "tune/fakes.hpp"

namespace key_test {

namespace {

// Written with members out of order, to show the canonical form sorts them.
struct MatmulKey {
    std::uint64_t m = 0;
    std::uint64_t k = 0;
    std::string dtype;
    friend bool operator==(const MatmulKey&, const MatmulKey&) = default;
};

std::ostream& operator<<(std::ostream& out, const MatmulKey& key) {
    return out << key.m << "x" << key.k << " " << key.dtype;
}
void to_json(nlohmann::json& json, const MatmulKey& key) {
    json = nlohmann::json::object();
    json["m"] = key.m;
    json["k"] = key.k;
    json["dtype"] = key.dtype;
}
void from_json(const nlohmann::json& json, MatmulKey& key) {
    key.m = json.at("m").get<std::uint64_t>();
    key.k = json.at("k").get<std::uint64_t>();
    key.dtype = json.at("dtype").get<std::string>();
}

struct NotAKey {
    int value = 0;
};

}  // namespace

}  // namespace key_test

// std::hash must be specialised in a scope that encloses std.
template <>
struct std::hash<key_test::MatmulKey> {
    std::size_t operator()(const key_test::MatmulKey& key) const noexcept {
        return std::hash<std::uint64_t>{}(key.m * 31 + key.k);
    }
};

namespace key_test {

using spvtune::tune::TuneKey;
static_assert(TuneKey<MatmulKey>);
static_assert(TuneKey<fakes::SizeKey>);
static_assert(TuneKey<int>);
static_assert(!TuneKey<NotAKey>);

TEST_CASE("canonical key JSON is compact with sorted members") {
    const MatmulKey key{64, 128, "f32"};
    CHECK(spvtune::tune::canonical_key_json(key) == R"({"dtype":"f32","k":128,"m":64})");
    CHECK(nlohmann::json::parse(spvtune::tune::canonical_key_json(key)).get<MatmulKey>() == key);
}

TEST_CASE("keys print with to_string, else operator<<") {
    CHECK(spvtune::tune::key_display(fakes::SizeKey{32}) == "size=32");
    CHECK(spvtune::tune::key_display(MatmulKey{2, 3, "f16"}) == "2x3 f16");
    CHECK(spvtune::tune::key_display(7) == "7");
}

TEST_CASE("Result holds a value or an error") {
    using spvtune::tune::Result;
    const Result<int> good = 3;
    CHECK(good);
    CHECK(good.value() == 3);
    const Result<int> bad = spvtune::tune::fail("nope");
    CHECK_FALSE(bad);
    CHECK(bad.error() == "nope");
    CHECK_THROWS(bad.value());
    // A string value and a string error stay distinct.
    const Result<std::string> text = std::string("value");
    CHECK(text.value() == "value");
    const Result<std::string> failed = spvtune::tune::fail("error");
    CHECK(failed.error() == "error");
}

}  // namespace key_test
