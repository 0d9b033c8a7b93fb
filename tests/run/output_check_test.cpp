#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/run/output_check.hpp>
#include <spvtune/vulkan/host_data.hpp>

#include "problem/problem_test_support.hpp"

namespace output_check_test {

using namespace spvtune::problem;
using namespace spvtune::run;
using namespace spvtune::problem::testing;

namespace {

CandidateOutputs floats(const std::vector<float>& values) {
    spvtune::base::LargeBytes bytes(values.size() * sizeof(float));
    std::memcpy(bytes.data(), values.data(), bytes.size());
    return {{bytes}, {}};
}

CandidateOutputs ints(const std::vector<std::int32_t>& values) {
    spvtune::base::LargeBytes bytes(values.size() * sizeof(std::int32_t));
    std::memcpy(bytes.data(), values.data(), bytes.size());
    return {{bytes}, {}};
}

const float nan = std::numeric_limits<float>::quiet_NaN();
const float inf = std::numeric_limits<float>::infinity();

}  // namespace

TEST_CASE("matching outputs compare equal") {
    const Problem problem = parse(saxpy_json());  // y: rtol 1e-5
    CHECK_FALSE(compare_outputs(problem, floats({1, 2, 3}), floats({1, 2, 3.00001f})));
}

TEST_CASE("identical outputs match, unless they hold NaN, which matches nothing") {
    const Problem problem = parse(saxpy_json());
    CHECK_FALSE(compare_outputs(problem, floats({1, inf, -0.0f}), floats({1, inf, -0.0f})));
    const auto report = compare_outputs(problem, floats({1, nan, 3}), floats({1, nan, 3}));
    REQUIRE(report);
    CHECK(
        report->starts_with("y[1]: expected nan (the reference's output; NaN matches nothing), "
                            "got nan; 1 of 3 elements of y differ, at 1"));
}

TEST_CASE("identical f16 outputs holding NaN match nothing, infinities match") {
    auto json = saxpy_json();
    json["buffers"]["y"]["type"] = "f16";  // the kernel's 4-byte stride holds whole elements
    const Problem problem = parse(json);
    const auto second_is = [](std::uint16_t bits) {
        spvtune::base::LargeBytes bytes(4);
        std::memcpy(bytes.data() + 2, &bits, sizeof bits);
        return CandidateOutputs{{bytes}, {}};
    };
    CHECK_FALSE(compare_outputs(problem, second_is(0x7c00), second_is(0x7c00)));  // +infinity
    const auto report = compare_outputs(problem, second_is(0x7c01), second_is(0x7c01));
    REQUIRE(report);
    CHECK(report->find("1 of 2 elements of y differ, at 1") != std::string::npos);
}

TEST_CASE("identical long outputs with one NaN anywhere match nothing, infinities match") {
    // Long enough for the scan's lanes, its 4 KiB blocks and a tail, each NaN or infinity placed
    // at an edge of one of them; NaN with either sign and a signalling one. The comparison reads
    // only the buffer's element type, so f64 is set on the parsed problem: no kernel of the test
    // support writes 8-byte elements, and parsing checks the type against the kernel's stride.
    struct Type {
        spvtune::vulkan::ElementType type;
        std::size_t size;
        std::uint64_t one;
        std::vector<std::uint64_t> nans;
        std::vector<std::uint64_t> infinities;
    };
    const std::vector<Type> types{
        {spvtune::vulkan::ElementType::f32,
         4,
         0x3f800000,
         {0x7fc00000, 0xffc00001, 0x7f800001},
         {0x7f800000, 0xff800000}},
        {spvtune::vulkan::ElementType::f16, 2, 0x3c00, {0x7e00, 0xfe01, 0x7c01}, {0x7c00, 0xfc00}},
        {spvtune::vulkan::ElementType::f64,
         8,
         0x3ff0000000000000,
         {0x7ff8000000000000, 0xfff8000000000001, 0x7ff0000000000001, 0x7ff0000100000000},
         {0x7ff0000000000000, 0xfff0000000000000}}};
    const std::size_t count = 5003;  // 8 lanes leave a tail of 3
    for (const Type& type : types) {
        CAPTURE(spvtune::vulkan::to_string(type.type));
        Problem problem = parse(saxpy_json());
        problem.buffers[problem.reference.compare.at(0).buffer].type = type.type;
        const auto holding = [&](std::size_t at, std::uint64_t bits) {
            spvtune::base::LargeBytes bytes;
            for (std::size_t i = 0; i < count; ++i) {
                const std::uint64_t value = i == at ? bits : type.one;
                const auto* from = reinterpret_cast<const std::byte*>(&value);
                bytes.insert(bytes.end(), from, from + type.size);  // little-endian, as the device
            }
            return CandidateOutputs{{bytes}, {}};
        };
        const std::size_t block = 4096 / type.size;
        for (const std::size_t at : {std::size_t{0}, std::size_t{7}, std::size_t{8}, block - 1,
                                     block, 2 * block - 1, count - 1}) {
            CAPTURE(at);
            for (const std::uint64_t bits : type.nans) {
                CHECK_FALSE(identical_outputs_match(problem, holding(at, bits)));
                const auto report = compare_outputs(problem, holding(at, bits), holding(at, bits));
                REQUIRE(report);
                CHECK(
                    report->ends_with("1 of 5003 elements of y differ, at " + std::to_string(at)));
            }
            for (const std::uint64_t bits : type.infinities) {
                CHECK(identical_outputs_match(problem, holding(at, bits)));
                CHECK_FALSE(compare_outputs(problem, holding(at, bits), holding(at, bits)));
            }
        }
    }
}

TEST_CASE("outputs holding a reference's exact bytes match it unless it holds NaN") {
    const Problem problem = parse(saxpy_json());  // y: f32
    CHECK(identical_outputs_match(problem, floats({1, inf, -0.0f})));
    CHECK_FALSE(identical_outputs_match(problem, floats({1, nan, 3})));
    CHECK_FALSE(identical_outputs_match(problem, CandidateOutputs{}));  // not one per comparison
    auto json = saxpy_json();
    json["buffers"]["y"]["type"] = "i32";
    CHECK(identical_outputs_match(parse(json), ints({-1, 0, 7})));  // all ones is a value here
}

TEST_CASE("a verdict reached where the candidate ran answers for the reference it was against") {
    const Problem problem = parse(saxpy_json());
    const auto truth = std::make_shared<const CandidateOutputs>(floats({1, 2, 3}));
    CandidateOutputs matched;  // no buffers: they matched in the worker and stayed there
    matched.verdict = CandidateOutputs::Verdict{truth, std::nullopt};
    CHECK_FALSE(compare_outputs(problem, floats({1, 2, 3}), matched));  // an equal copy
    CandidateOutputs differed = floats({1, 2, 3});
    differed.verdict = CandidateOutputs::Verdict{truth, "y[2]: the worker's message"};
    CHECK(compare_outputs(problem, *truth, differed) == "y[2]: the worker's message");

    // Against another truth the verdict says nothing: the buffers, when there, are compared.
    CHECK_FALSE(compare_outputs(problem, floats({1, 2, 3}), [&] {
        CandidateOutputs other = floats({1, 2, 3});
        other.verdict = CandidateOutputs::Verdict{
            std::make_shared<const CandidateOutputs>(floats({7, 7, 7})), "y[0]: differs"};
        return other;
    }()));
    const auto missing = compare_outputs(problem, floats({1, 2, 4}), matched);
    REQUIRE(missing);
    CHECK(missing->find("not at hand") != std::string::npos);
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

TEST_CASE("an expected NaN or infinity says it is the reference's value and prints no tolerance") {
    const Problem problem = parse(saxpy_json());
    const auto report = compare_outputs(problem, floats({nan, 1, inf}), floats({2.75f, 1, 3}));
    REQUIRE(report);
    CHECK(*report ==
          "y[0]: expected nan (the reference's output; NaN matches nothing), got 2.75; 2 of 3 "
          "elements of y differ, at 0, 2");
    const auto infinite = compare_outputs(problem, floats({1, inf}), floats({1, 3}));
    REQUIRE(infinite);
    CHECK(*infinite ==
          "y[1]: expected inf (the reference's output; an infinity matches only itself), got 3; "
          "1 of 2 elements of y differ, at 1");
    const auto got_nan = compare_outputs(problem, floats({1, 2}), floats({1, nan}));
    REQUIRE(got_nan);
    CHECK(*got_nan ==
          "y[1]: expected 2, got nan (NaN matches nothing); 1 of 2 elements of y differ, at 1");
}

TEST_CASE("a reference's unwritten elements are given as ranges of the buffer") {
    const Problem problem = parse(saxpy_json());
    CHECK_FALSE(unwritten_by_reference(problem, floats(std::vector<float>(16, 1.0f))));
    CandidateOutputs tail = floats(std::vector<float>(4096, 1.0f));
    std::memset(tail.buffers[0].data() + 1533 * sizeof(float), 0xff, (4096 - 1533) * sizeof(float));
    CHECK(unwritten_by_reference(problem, tail) ==
          std::optional<std::string>("did not write y[1533..4095] (2563 of 4096 elements)"));
    // A stride: every other element, listed up to four runs.
    CandidateOutputs stride = floats(std::vector<float>(12, 1.0f));
    for (std::size_t i = 0; i < 12; i += 2) {
        std::memset(stride.buffers[0].data() + i * sizeof(float), 0xff, sizeof(float));
    }
    CHECK(unwritten_by_reference(problem, stride) ==
          std::optional<std::string>("did not write y[0, 2, 4, 6, ...] (6 of 12 elements)"));
    // A NaN the reference wrote is not a poison pattern: only witnesses could judge it.
    CHECK_FALSE(
        unwritten_by_reference(problem, floats({std::numeric_limits<float>::quiet_NaN(), 1.0f})));
}

TEST_CASE("a candidate finite only where the reference is not casts doubt on the reference") {
    const Problem problem = parse(saxpy_json());
    const CandidateOutputs reference = floats({1, nan, nan, 3, inf});
    CHECK(non_finite_in_reference(problem, reference, floats({1, 5, 6, 3, 7})) ==
          std::optional<std::string>("gave NaN and infinities at y[1..2, 4] (3 of 5 elements)"));
    CHECK(non_finite_in_reference(problem, floats({1, nan}), floats({1, 5})) ==
          std::optional<std::string>("gave NaN at y[1] (1 of 2 elements)"));
    // Any other difference, or a candidate not finite there either, is the candidate's own.
    CHECK_FALSE(non_finite_in_reference(problem, reference, floats({2, 5, 6, 3, 7})));
    CHECK_FALSE(non_finite_in_reference(problem, reference, floats({1, nan, 6, 3, 7})));
    CHECK_FALSE(non_finite_in_reference(problem, floats({1, 2}), floats({1, 2})));
    CandidateOutputs violating = floats({1, 5, 6, 3, 7});
    violating.violations.push_back("wrote past the end of 'y'");
    CHECK_FALSE(non_finite_in_reference(problem, reference, violating));
}

TEST_CASE("two candidates agree where the reference is not finite under the comparison") {
    const Problem problem = parse(saxpy_json());  // y: rtol 1e-5
    const CandidateOutputs reference = floats({1, nan, inf});
    CHECK(agree_where_reference_not_finite(problem, reference, floats({1, 5, 7}),
                                           floats({9, 5.00001f, 7})));
    CHECK_FALSE(
        agree_where_reference_not_finite(problem, reference, floats({1, 5, 7}), floats({1, 6, 7})));
    CHECK_FALSE(
        agree_where_reference_not_finite(problem, reference, floats({1, 5, 7}), floats({1, 5})));
}

TEST_CASE("an expected poison pattern says the reference may not have written it") {
    Json json = saxpy_json();
    json["buffers"]["y"]["type"] = "i32";
    json["buffers"]["y"]["init"] = Json::parse(R"({"iota": {"start": 0, "step": 1}})");
    json["reference"]["compare"]["y"] = Json::parse(R"({"exact": true})");
    const Problem problem = parse(json);
    const auto report = compare_outputs(problem, ints({1, -1}), ints({1, 7}));
    REQUIRE(report);
    CHECK(*report ==
          "y[1]: expected -1 (the poison pattern: the reference may not have written it), got 7; "
          "1 of 2 elements of y differ, at 1; largest absolute error 8 at y[1], largest relative "
          "error 8 at y[1]");
    CandidateOutputs unwritten = floats({1, 2});
    std::memset(unwritten.buffers[0].data() + sizeof(float), 0xff, sizeof(float));
    const auto never = compare_outputs(parse(saxpy_json()), unwritten, floats({1, 3}));
    REQUIRE(never);
    CHECK(*never ==
          "y[1]: expected nan (the poison pattern: the reference never wrote it), got 3; 1 of 2 "
          "elements of y differ, at 1");
}

}  // namespace output_check_test
