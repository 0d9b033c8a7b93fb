#include <doctest/doctest.h>

#include <spvtune/problem/kernel_search.hpp>

#include "cache/temp_directory.hpp"
#include "support/scoped_env.hpp"

namespace kernel_search_test {

using namespace spvtune::problem;
using spvtune::tune::testing::TempDirectory;
using spvtune::tune::testing::write_bytes;
namespace fs = std::filesystem;

using spvtune::test::ScopedEnv;

TEST_CASE("SPIR-V is looked for next to the problem, in the kernel dirs, the path, then built-in") {
    TempDirectory problem_dir;
    TempDirectory dir_a;
    TempDirectory dir_b;
    TempDirectory env_dir;
    const ScopedEnv env("SPVTUNE_KERNEL_PATH", "::" + env_dir.path().string() + ":");
    const fs::path problem = problem_dir.path() / "p.json";
    const auto places = kernel_candidates("k.spv", problem, {dir_a.path(), dir_b.path()});
    CHECK(places == std::vector<fs::path>{problem_dir.path() / "k.spv", dir_a.path() / "k.spv",
                                          dir_b.path() / "k.spv", env_dir.path() / "k.spv",
                                          builtin_kernel_dir() / "k.spv"});
    CHECK_FALSE(find_kernel("k.spv", problem, {dir_a.path(), dir_b.path()}));
    write_bytes(env_dir.path() / "k.spv", "x");
    CHECK(find_kernel("k.spv", problem, {dir_a.path()}) == env_dir.path() / "k.spv");
    write_bytes(dir_b.path() / "k.spv", "x");
    CHECK(find_kernel("k.spv", problem, {dir_a.path(), dir_b.path()}) == dir_b.path() / "k.spv");
    write_bytes(problem_dir.path() / "k.spv", "x");
    CHECK(find_kernel("k.spv", problem, {dir_b.path()}) == problem_dir.path() / "k.spv");
    // The shipped kernels are always found last.
    CHECK(find_kernel("saxpy.spv", problem, {}) == builtin_kernel_dir() / "saxpy.spv");
}

TEST_CASE("without SPVTUNE_KERNEL_PATH, or with it empty, no path directory is searched") {
    TempDirectory problem_dir;
    const fs::path problem = problem_dir.path() / "p.json";
    const std::vector<fs::path> without_path{problem_dir.path() / "k.spv", "/d/k.spv",
                                             builtin_kernel_dir() / "k.spv"};
    const ScopedEnv env("SPVTUNE_KERNEL_PATH", std::nullopt);
    CHECK(kernel_candidates("k.spv", problem, {"/d"}) == without_path);
    env.set("");
    CHECK(kernel_candidates("k.spv", problem, {"/d"}) == without_path);
}

TEST_CASE("an absolute spirv path is the only place looked at") {
    CHECK(kernel_candidates("/abs/k.spv", "/p/problem.json", {"/d"}) ==
          std::vector<fs::path>{"/abs/k.spv"});
}

}  // namespace kernel_search_test
