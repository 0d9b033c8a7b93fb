#include <stdexcept>

#include <doctest/doctest.h>

#include <spvtune/cache/cache_location.hpp>

#include "cache/cache_samples.hpp"

using namespace spvtune::tune;

using namespace spvtune::cache;

TEST_CASE("the cache directory comes from the most specific source that is set") {
    CacheDirectorySources sources{"/explicit", "/env", "/xdg", "/home/me"};
    CHECK(choose_cache_directory(sources) == "/explicit");
    sources.explicit_directory.reset();
    CHECK(choose_cache_directory(sources) == "/env");
    sources.spvtune_cache_dir = "";  // an empty variable counts as unset
    CHECK(choose_cache_directory(sources) == "/xdg/spvtune");
    sources.xdg_cache_home = "relative/cache";  // the XDG spec says to ignore relative paths
    CHECK(choose_cache_directory(sources) == "/home/me/.cache/spvtune");
    sources.home.reset();
    CHECK_THROWS_AS(choose_cache_directory(sources), std::runtime_error);
}

TEST_CASE("the environment is read as the sources") {
    const auto sources = cache_directory_sources(std::filesystem::path("/explicit"));
    CHECK(sources.explicit_directory == std::filesystem::path("/explicit"));
    CHECK(choose_cache_directory(sources) == "/explicit");
}

TEST_CASE("the file is named after the identity key, which may not leave the directory") {
    CHECK(cache_file_name(testing::sample_hardware("gpu-00ff")) == "gpu-00ff.json");
    CHECK_THROWS_AS(cache_file_name(testing::sample_hardware("")), std::invalid_argument);
    CHECK_THROWS_AS(cache_file_name(testing::sample_hardware("..")), std::invalid_argument);
    CHECK_THROWS_AS(cache_file_name(testing::sample_hardware("a/../../b")), std::invalid_argument);
}
