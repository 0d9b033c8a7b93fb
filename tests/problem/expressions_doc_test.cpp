// docs/expressions.md states what expressions mean with examples ("`-7 / 2` is -3"): each must
// evaluate to what the page says.
#include <regex>
#include <string>

#include <doctest/doctest.h>

#include "cache/temp_directory.hpp"
#include "expression_helpers.hpp"
#include "problem_test_support.hpp"

namespace expressions_doc_test {

using namespace spvtune::problem::testing;

TEST_CASE("every example in docs/expressions.md evaluates to what it says") {
    const std::string page =
        spvtune::tune::testing::read_bytes(config_dir.parent_path() / "docs" / "expressions.md");
    const std::regex example("`([^`]+)`\\s+is\\s+(-?[0-9]+(\\.[0-9]+)?)");
    std::size_t examples = 0;
    for (auto it = std::sregex_iterator(page.begin(), page.end(), example);
         it != std::sregex_iterator(); ++it) {
        const std::string expression = (*it)[1];
        CAPTURE(expression);
        CHECK(show(expression) == (*it)[2].str());
        ++examples;
    }
    CHECK(examples >= 10);
}

}  // namespace expressions_doc_test
