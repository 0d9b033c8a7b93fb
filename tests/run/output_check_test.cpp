#include <cstring>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/run/output_check.hpp>

#include "problem/problem_test_support.hpp"

namespace output_check_test {

using namespace spvtune::problem;
using namespace spvtune::run;
using namespace spvtune::problem::testing;

namespace {

CandidateOutputs floats(const std::vector<float>& values) {
    std::vector<std::byte> bytes(values.size() * sizeof(float));
    std::memcpy(bytes.data(), values.data(), bytes.size());
    return {{bytes}, {}};
}

}  // namespace

TEST_CASE("matching outputs compare equal") {
    const Problem problem = parse(saxpy_json());  // y: rtol 1e-5
    CHECK_FALSE(compare_outputs(problem, floats({1, 2, 3}), floats({1, 2, 3.00001f})));
}

TEST_CASE("a mismatch report counts the mismatches, lists where and gives the largest errors") {
    const Problem problem = parse(saxpy_json());
    const auto report =
        compare_outputs(problem, floats({1, 2, 4, 8, 0, 5}), floats({1, 2.5f, 4, 9, 0.5f, 5}));
    REQUIRE(report);
    CHECK(*report ==
          "y[1]: expected 2, got 2.5 (|difference| 0.5 > tolerance 2e-05); 3 of 6 elements of y "
          "differ, at 1, 3, 4; largest absolute error 1 at y[3], largest relative error inf at "
          "y[4]");
}

TEST_CASE(
    "a long run of mismatches lists the first few indices, and never-written elements say so") {
    const Problem problem = parse(saxpy_json());
    std::vector<float> want(20, 1.0f);
    std::vector<float> got(20, 1.0f);
    for (std::size_t i = 10; i < 20; ++i) {
        got[i] = 1.25f;
    }
    CandidateOutputs poisoned = floats(got);
    std::memset(poisoned.buffers[0].data() + 10 * sizeof(float), 0xff, sizeof(float));
    const auto report = compare_outputs(problem, floats(want), poisoned);
    REQUIRE(report);
    CHECK(*report ==
          "y[10]: expected 1, got nan (the poison pattern: never written); 10 of 20 elements of "
          "y differ, at 10, 11, 12, 13, 14, 15, 16, 17, ...; largest absolute error 0.25 at "
          "y[11], largest relative error 0.25 at y[11]");
}

}  // namespace output_check_test
