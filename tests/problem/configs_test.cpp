#include <doctest/doctest.h>

#include "problem_test_support.hpp"

using namespace spvtune::problem;
using namespace spvtune::problem::testing;

TEST_CASE("every problem description in configs/ is valid") {
    std::size_t count = 0;
    for (const auto& entry : std::filesystem::directory_iterator(config_dir)) {
        const auto& path = entry.path();
        const std::string name = path.filename().string();
        if (path.extension() != ".json" || name.ends_with(".schema.json")) {
            continue;
        }
        ++count;
        CAPTURE(path);
        try {
            const Problem problem = load_problem(path);
            CHECK_FALSE(problem.keys.empty());
            CHECK_FALSE(problem.candidates.empty());
        } catch (const ProblemError& error) {
            FAIL(std::string(error.what()));
        }
    }
    CHECK(count >= 1);
}

TEST_CASE("the example saxpy problem expands to the documented candidates") {
    const Problem problem = load_problem(config_dir / "saxpy.json");
    REQUIRE(problem.candidates.size() == 4);
    CHECK(problem.candidates[0].name == "saxpy[WG=32]");
    CHECK(problem.candidates[problem.reference.candidates.at(0)].name == "saxpy[WG=64]");
}
