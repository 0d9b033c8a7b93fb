#include <doctest/doctest.h>

#include <spvtune/tune/key_distance.hpp>

namespace key_distance_test {

using spvtune::tune::key_distance;

TEST_CASE("keys are as far apart as their numeric members' doublings, summed") {
    CHECK(key_distance(R"({"n":4096})", R"({"n":4096})") == 0.0);
    CHECK(key_distance(R"({"n":4096})", R"({"n":8192})") == 1.0);
    CHECK(key_distance(R"({"n":4096})", R"({"n":2048})") == 1.0);
    CHECK(key_distance(R"({"n":1024})", R"({"n":16384})") == 4.0);
    CHECK(key_distance(R"({"M":64,"N":128})", R"({"M":128,"N":512})") == 3.0);
    CHECK(key_distance("64", "256") == 2.0);
    CHECK(*key_distance(R"({"n":4096})", R"({"n":5000})") ==
          doctest::Approx(0.2877).epsilon(0.001));
}

TEST_CASE("keys that differ otherwise than in positive numbers are no neighbours") {
    CHECK_FALSE(key_distance(R"({"n":4096,"type":"f32"})", R"({"n":4096,"type":"f16"})"));
    CHECK(key_distance(R"({"n":4096,"type":"f32"})", R"({"n":8192,"type":"f32"})") == 1.0);
    CHECK_FALSE(key_distance(R"({"n":4096})", R"({"m":4096})"));
    CHECK_FALSE(key_distance(R"({"n":4096})", R"({"n":4096,"m":1})"));
    CHECK_FALSE(key_distance(R"({"n":0})", R"({"n":4})"));
    CHECK_FALSE(key_distance(R"({"n":-4})", R"({"n":4})"));
    CHECK(key_distance(R"({"n":0})", R"({"n":0})") == 0.0);
    CHECK_FALSE(key_distance(R"({"n":true})", R"({"n":false})"));
    CHECK_FALSE(key_distance("{not json", R"({"n":4})"));
    CHECK_FALSE(key_distance(R"({"n":4})", "[4]"));
}

}  // namespace key_distance_test
