#include <doctest/doctest.h>

#include "cache/temp_directory.hpp"
#include "problem_test_support.hpp"

namespace configs_test {

using namespace spvtune::problem;
using namespace spvtune::problem::testing;

// Every .json file directly in configs/ must be a problem, so `spvtune check configs/*.json`
// (configs/README.md) passes; the schemas live apart in configs/schemas/.
TEST_CASE("every .json file in configs/ is a valid problem description") {
    std::size_t count = 0;
    for (const auto& entry : std::filesystem::directory_iterator(config_dir)) {
        const auto& path = entry.path();
        if (path.extension() != ".json") {
            continue;
        }
        ++count;
        CAPTURE(path);
        // An editor resolves "$schema" relative to the file; it must name the shipped schema.
        const Json document = Json::parse(spvtune::tune::testing::read_bytes(path));
        if (document.contains("$schema")) {
            CHECK(std::filesystem::is_regular_file(path.parent_path() /
                                                   document["$schema"].get<std::string>()));
        }
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

}  // namespace configs_test
