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

TEST_CASE("the built-in kernels are found under the program's prefix, wherever it was moved") {
    TempDirectory root;
    const fs::path prefix = root.path() / "opt" / "spvtune";
    fs::create_directories(prefix / "bin");
    fs::create_directories(prefix / "share" / "spvtune" / "kernels");
    CHECK(kernel_dir_near(prefix / "bin" / "spvtune") == prefix / "share" / "spvtune" / "kernels");

    const fs::path moved = root.path() / "elsewhere";
    fs::rename(prefix, moved);
    CHECK(kernel_dir_near(moved / "bin" / "spvtune") == moved / "share" / "spvtune" / "kernels");
    // A build tree's test programs sit two or three levels below it.
    CHECK(kernel_dir_near(moved / "tests" / "suite" / "program") ==
          moved / "share" / "spvtune" / "kernels");
    CHECK(kernel_dir_near(moved / "lib" / "run" / "examples" / "program") ==
          moved / "share" / "spvtune" / "kernels");
    // Farther above is no prefix of the program; no kernels at all is nothing.
    CHECK_FALSE(kernel_dir_near(moved / "a" / "b" / "c" / "d" / "program"));
    CHECK_FALSE(kernel_dir_near(root.path() / "opt" / "bin" / "spvtune"));
}

TEST_CASE("this build's programs find its kernels through the same layout, not a compiled path") {
    // The test program runs from the build tree: its kernels are the build's, found through
    // build/<preset>/share/spvtune/kernels.
    REQUIRE_FALSE(builtin_kernel_dir().empty());
    CHECK(builtin_kernel_dir().filename() == "kernels");
    CHECK(builtin_kernel_dir().parent_path().filename() == "spvtune");
    CHECK(fs::is_regular_file(builtin_kernel_dir() / "saxpy.spv"));
}

TEST_CASE("an absolute spirv path is the only place looked at") {
    CHECK(kernel_candidates("/abs/k.spv", "/p/problem.json", {"/d"}) ==
          std::vector<fs::path>{"/abs/k.spv"});
}

}  // namespace kernel_search_test
