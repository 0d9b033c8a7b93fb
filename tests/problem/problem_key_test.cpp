#include <unordered_set>

#include <doctest/doctest.h>

#include <spvtune/problem/problem_key.hpp>
#include <spvtune/tune/key.hpp>

namespace problem_key_test {

using namespace spvtune::problem;

static_assert(spvtune::tune::TuneKey<ProblemKey>);

TEST_CASE("a problem key sorts its parameters and prints them as name=value") {
    const ProblemKey key(
        {{"n", std::int64_t{4096}}, {"dtype", std::string("f32")}, {"alpha", 2.0}});
    CHECK(to_string(key) == "alpha=2.0,dtype=f32,n=4096");
    REQUIRE(key.find("n") != nullptr);
    CHECK(std::get<std::int64_t>(*key.find("n")) == 4096);
    CHECK(key.find("m") == nullptr);
}

TEST_CASE("problem keys compare and hash by content, whatever order they were built in") {
    const ProblemKey a({{"n", std::int64_t{1}}, {"m", std::int64_t{2}}});
    const ProblemKey b({{"m", std::int64_t{2}}, {"n", std::int64_t{1}}});
    const ProblemKey c({{"m", std::int64_t{2}}, {"n", std::int64_t{3}}});
    CHECK(a == b);
    CHECK_FALSE(a == c);
    CHECK(std::hash<ProblemKey>{}(a) == std::hash<ProblemKey>{}(b));
    // An int and a float of the same value are different keys.
    const ProblemKey integer({{"x", std::int64_t{2}}});
    const ProblemKey floating({{"x", 2.0}});
    CHECK_FALSE(integer == floating);
    CHECK(std::hash<ProblemKey>{}(ProblemKey({{"x", -0.0}})) ==
          std::hash<ProblemKey>{}(ProblemKey({{"x", 0.0}})));
    std::unordered_set<ProblemKey> set{a, b, c};
    CHECK(set.size() == 2);
}

TEST_CASE("a repeated parameter name is refused") {
    CHECK_THROWS_AS(ProblemKey({{"n", std::int64_t{1}}, {"n", std::int64_t{2}}}),
                    std::invalid_argument);
}

TEST_CASE("problem keys round-trip through JSON with their value types") {
    const ProblemKey key({{"n", std::int64_t{-5}}, {"alpha", 2.0}, {"dtype", std::string("f16")}});
    const nlohmann::json json = key;
    CHECK(json.dump() == R"({"alpha":2.0,"dtype":"f16","n":-5})");
    CHECK(json.get<ProblemKey>() == key);
    CHECK(nlohmann::json::parse(spvtune::tune::canonical_key_json(key)).get<ProblemKey>() == key);
}

TEST_CASE("JSON that is not a problem key is a type error") {
    CHECK_THROWS_AS(nlohmann::json::parse("[1]").get<ProblemKey>(), nlohmann::json::type_error);
    CHECK_THROWS_AS(nlohmann::json::parse(R"({"a":true})").get<ProblemKey>(),
                    nlohmann::json::type_error);
    CHECK_THROWS_AS(nlohmann::json::parse(R"({"a":18446744073709551615})").get<ProblemKey>(),
                    nlohmann::json::type_error);
}

}  // namespace problem_key_test
