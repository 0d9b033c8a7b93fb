#include <stdexcept>

#include <doctest/doctest.h>

#include <spvtune/cache/cache_location.hpp>

#include "cache/cache_samples.hpp"
#include "support/scoped_env.hpp"

namespace cache_location_test {

using namespace spvtune::tune;

using namespace spvtune::cache;
using spvtune::test::ScopedEnv;

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

TEST_CASE("each variable is read into its source, and an unset or empty one is absent") {
    const ScopedEnv spvtune_dir("SPVTUNE_CACHE_DIR", "/env");
    const ScopedEnv xdg("XDG_CACHE_HOME", "/xdg");
    const ScopedEnv home("HOME", "/home/me");
    CacheDirectorySources sources = cache_directory_sources(std::nullopt);
    CHECK_FALSE(sources.explicit_directory);
    CHECK(sources.spvtune_cache_dir == "/env");
    CHECK(sources.xdg_cache_home == "/xdg");
    CHECK(sources.home == "/home/me");
    CHECK(cache_directory_sources(std::filesystem::path("/explicit")).explicit_directory ==
          std::filesystem::path("/explicit"));

    spvtune_dir.set("");
    xdg.set(std::nullopt);
    home.set("");
    sources = cache_directory_sources(std::nullopt);
    CHECK_FALSE(sources.spvtune_cache_dir);
    CHECK_FALSE(sources.xdg_cache_home);
    CHECK_FALSE(sources.home);
}

TEST_CASE("the environment decides in order: SPVTUNE_CACHE_DIR, XDG_CACHE_HOME, then HOME") {
    const ScopedEnv spvtune_dir("SPVTUNE_CACHE_DIR", "/env");
    const ScopedEnv xdg("XDG_CACHE_HOME", "/xdg");
    const ScopedEnv home("HOME", "/home/me");
    const auto chosen = [](std::optional<std::filesystem::path> explicit_directory = {}) {
        return choose_cache_directory(cache_directory_sources(std::move(explicit_directory)));
    };
    CHECK(chosen("/explicit") == "/explicit");
    CHECK(chosen() == "/env");
    spvtune_dir.set(std::nullopt);
    CHECK(chosen() == "/xdg/spvtune");
    xdg.set(std::nullopt);
    CHECK(chosen() == "/home/me/.cache/spvtune");
    home.set(std::nullopt);
    CHECK_THROWS_WITH_AS(chosen(),
                         "cannot choose a cache directory: HOME is not set; use --cache-dir or "
                         "set SPVTUNE_CACHE_DIR",
                         std::runtime_error);
    CHECK(chosen("/explicit") == "/explicit");
}

TEST_CASE("a process's cache directory is the explicit one, else the environment's") {
    const ScopedEnv spvtune_dir("SPVTUNE_CACHE_DIR", "/env");
    CHECK(resolve_cache_directory("/explicit") == "/explicit");
    CHECK(resolve_cache_directory() == "/env");
    CHECK(resolve_cache_directory("") == "/env");
    spvtune_dir.set(std::nullopt);
    const ScopedEnv xdg("XDG_CACHE_HOME", std::nullopt);
    const ScopedEnv home("HOME", std::nullopt);
    CHECK_THROWS_AS(resolve_cache_directory(), std::runtime_error);
}

TEST_CASE("the file is named after the identity key, which may not leave the directory") {
    CHECK(cache_file_name(testing::sample_hardware("gpu-00ff")) == "gpu-00ff.json");
    CHECK_THROWS_AS(cache_file_name(testing::sample_hardware("")), std::invalid_argument);
    CHECK_THROWS_AS(cache_file_name(testing::sample_hardware("..")), std::invalid_argument);
    CHECK_THROWS_AS(cache_file_name(testing::sample_hardware("a/../../b")), std::invalid_argument);
}

}  // namespace cache_location_test
