// Names expressions read as variables may not also be literals or functions.
#include <algorithm>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "problem_test_support.hpp"

namespace variable_names_test {

using namespace spvtune::problem;
using namespace spvtune::problem::testing;

namespace {

bool any_contains(const std::vector<std::string>& errors, const std::string& part) {
    return std::any_of(errors.begin(), errors.end(),
                       [&](const std::string& error) { return error.find(part) != error.npos; });
}

}  // namespace

TEST_CASE("a key parameter named like a literal or a function is an error") {
    for (const std::string name : {"true", "false", "min", "pow2"}) {
        CAPTURE(name);
        Json json = saxpy_json();
        json["parameters"][name] = {{"type", "int"}};
        const auto errors = errors_of(json);
        CHECK_MESSAGE(any_contains(errors, "/parameters/" + name +
                                               ": expected a parameter name "
                                               "other than '" +
                                               name + "'"),
                      errors.size());
    }
}

TEST_CASE("a grid parameter named like a function is an error") {
    Json json = saxpy_json();
    json["candidates"][0]["grid"]["max"] = {1};
    const auto errors = errors_of(json);
    CHECK(any_contains(errors,
                       "/candidates/0/grid/max: expected a grid parameter name other "
                       "than 'max', the name of an expression function"));
}

}  // namespace variable_names_test
