#include <optional>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/problem/suggest.hpp>

namespace suggest_test {

using spvtune::problem::did_you_mean;
using Names = std::vector<std::string>;

TEST_CASE("did_you_mean finds names within two edits") {
    CHECK(did_you_mean("TILES", Names{"n", "TILE", "VEC"}) == "TILE");
    CHECK(did_you_mean("bufers", Names{"buffer", "buffers"}) == "buffers");  // 1 edit beats 2
    CHECK(did_you_mean("ceil_dvi", Names{"ceil", "ceil_div", "floor"}) == "ceil_div");  // a swap
    CHECK(did_you_mean("abcdef", Names{"abcxyf"}) == "abcxyf");                         // 2 edits
    CHECK(did_you_mean("abcdef", Names{"axyzef"}) == std::nullopt);                     // 3 edits
    CHECK(did_you_mean("entry", Names{"entry_point"}) == std::nullopt);
}

TEST_CASE("did_you_mean ignores case, preferring the exact case on a tie") {
    CHECK(did_you_mean("tile", Names{"TILE", "VEC"}) == "TILE");
    CHECK(did_you_mean("Tile", Names{"TILE", "tile"}) == "tile");
    CHECK(did_you_mean("Tile", Names{"tile", "TILE"}) == "tile");
}

TEST_CASE("did_you_mean breaks remaining ties by candidate order") {
    CHECK(did_you_mean("ab", Names{"ac", "ad"}) == "ac");
    CHECK(did_you_mean("ab", Names{"ad", "ac"}) == "ad");
}

TEST_CASE("did_you_mean does not turn a short name into an unrelated one") {
    CHECK(did_you_mean("x", Names{"n", "m"}) == std::nullopt);
    CHECK(did_you_mean("ab", Names{"xy"}) == std::nullopt);
    CHECK(did_you_mean("N", Names{"n"}) == "n");  // only the case differs
    CHECK(did_you_mean("", Names{"a"}) == std::nullopt);
    CHECK(did_you_mean("name", Names{}) == std::nullopt);
}

}  // namespace suggest_test
