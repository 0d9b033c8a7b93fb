// The gzip reader replay uses (app/gzip_input.cpp), at its edges: the limit exactly met and
// passed by one byte, within one member and across several, padding, empty members.
#include "gzip_input.hpp"

#include <stdexcept>
#include <string>

#include <doctest/doctest.h>

#include "cli/gzip_bytes.hpp"

namespace gzip_input_test {

using spvtune::app::gunzip;
using spvtune::app::is_gzip;
using spvtune::test::gzip_member;

namespace {

std::string refusal(const std::string& compressed, std::size_t max_bytes) {
    try {
        gunzip(compressed, max_bytes);
    } catch (const std::runtime_error& error) {
        return error.what();
    }
    return "no error";
}

}  // namespace

TEST_CASE("gunzip gives exactly the limit and refuses one byte more, in one member or several") {
    const std::string text(1000, 'x');
    CHECK(gunzip(gzip_member(text), 1000) == text);
    CHECK(refusal(gzip_member(text + "y"), 1000) ==
          "the gzip data decompresses to more than 1000 bytes");
    const std::string halves = gzip_member(text.substr(0, 600)) + gzip_member(text.substr(600));
    CHECK(gunzip(halves, 1000) == text);
    CHECK(refusal(halves + gzip_member("y"), 1000) ==
          "the gzip data decompresses to more than 1000 bytes");
    // One member far past the limit (a bomb) stops at it.
    CHECK(refusal(gzip_member(std::string(std::size_t{8} << 20, '\0')), std::size_t{1} << 20) ==
          "the gzip data decompresses to more than 1 MiB");
}

TEST_CASE("gunzip passes over zero padding and empty members, and refuses anything else after") {
    const std::string member = gzip_member("{}");
    CHECK(gunzip(member + std::string(512, '\0'), 100) == "{}");
    CHECK(gunzip(gzip_member("") + member + gzip_member(""), 100) == "{}");
    CHECK(refusal(member + std::string(4, '\0') + "x", 100) ==
          "5 bytes after the end of the gzip data that are not gzip data");
    CHECK(refusal(member.substr(0, member.size() - 1), 100) ==
          "the gzip data ends early (cut off?)");
    CHECK(is_gzip(member));
    CHECK_FALSE(is_gzip("{\"cache\": {}}"));
    CHECK_FALSE(is_gzip(member.substr(0, 2)));
}

}  // namespace gzip_input_test
