// A comparison's `range`: only part of a checked buffer is compared (a reduction that leaves its
// result in element 0 of an inout buffer it also works in).

#include <cstring>

#include <doctest/doctest.h>

#include <spvtune/problem/resolve.hpp>
#include <spvtune/run/output_check.hpp>

#include "problem/problem_test_support.hpp"

namespace checked_range_test {

using namespace spvtune::problem;
using namespace spvtune::run;
using namespace spvtune::problem::testing;

namespace {

/// saxpy whose check covers y[1..n/2) only.
Json saxpy_checking_part_of_y() {
    Json json = saxpy_json();
    json["reference"]["compare"]["y"]["range"] = {1, "n / 2"};
    return json;
}

CandidateOutputs floats(const std::vector<float>& values) {
    spvtune::base::LargeBytes bytes(values.size() * sizeof(float));
    std::memcpy(bytes.data(), values.data(), bytes.size());
    return CandidateOutputs{{bytes}, {}};
}

}  // namespace

TEST_CASE("a comparison's range resolves per key to the elements compared") {
    const Problem problem = parse(saxpy_checking_part_of_y());
    const auto buffers = resolve_buffers(problem, ProblemKey({{"n", std::int64_t{8}}}));
    REQUIRE(buffers);
    CHECK(buffers.value()[1].checked == std::pair<std::uint64_t, std::uint64_t>{1, 4});
    CHECK(buffers.value()[0].checked == std::pair<std::uint64_t, std::uint64_t>{0, 8});
}

TEST_CASE("elements outside the range are neither compared nor judged unwritten") {
    const Problem problem = parse(saxpy_checking_part_of_y());
    const auto buffers = resolve_buffers(problem, ProblemKey({{"n", std::int64_t{8}}})).value();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    CandidateOutputs want = floats({nan, 1, 2, 3, 9, 9, 9, 9});
    CandidateOutputs same_in_range = floats({5, 1, 2, 3, 0, 1, 2, nan});
    CandidateOutputs wrong_in_range = floats({0, 1, 2.5f, 3, 9, 9, 9, 9});
    for (CandidateOutputs* outputs : {&want, &same_in_range, &wrong_in_range}) {
        keep_checked_range(problem, buffers, *outputs);
    }
    CHECK_FALSE(unwritten_by_reference(problem, want));
    CHECK_FALSE(compare_outputs(problem, want, same_in_range));
    const auto differs = compare_outputs(problem, want, wrong_in_range);
    REQUIRE(differs);
    CHECK(differs->starts_with("y[2]: expected 2, got 2.5"));
}

TEST_CASE("a range outside the buffer fails the key, naming the comparison") {
    Json json = saxpy_json();
    json["reference"]["compare"]["y"]["range"] = {0, "n + 1"};
    const Problem problem = parse(json);
    const auto buffers = resolve_buffers(problem, ProblemKey({{"n", std::int64_t{8}}}));
    REQUIRE_FALSE(buffers);
    CHECK(buffers.error() ==
          "/reference/compare/y/range: [0, 9] for n=8 is not a range of buffer "
          "'y' (8 elements); expected 0 <= begin < end <= its count");
}

TEST_CASE("a range is two expressions of the key parameters") {
    Json json = saxpy_json();
    json["reference"]["compare"]["y"]["range"] = {0};
    CHECK(contains(error_of(json), "/reference/compare/y/range: expected an array [begin, end]"));
    json["reference"]["compare"]["y"]["range"] = {0, "WG"};
    CHECK(contains(error_of(json),
                   "/reference/compare/y/range/1: bad expression: unknown "
                   "variable 'WG'; a range may use the key parameters: n"));
}

}  // namespace checked_range_test
