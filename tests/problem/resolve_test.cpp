#include <cstring>

#include <doctest/doctest.h>

#include <spvtune/problem/resolve.hpp>

#include "problem_test_support.hpp"

namespace resolve_test {

using namespace spvtune::problem;
using namespace spvtune::problem::testing;

namespace {

ProblemKey n_key(std::int64_t n) {
    return ProblemKey({{"n", n}});
}

}  // namespace

TEST_CASE("buffers resolve to counts and sizes for a key") {
    const Problem problem = parse(saxpy_json());
    const auto buffers = resolve_buffers(problem, n_key(1000));
    REQUIRE(buffers);
    REQUIRE(buffers.value().size() == 2);
    CHECK(buffers.value()[0].name == "x");
    CHECK(buffers.value()[0].count == 1000);
    CHECK(buffers.value()[0].bytes == 4000);
    CHECK(buffers.value()[1].role == BufferRole::inout);
}

TEST_CASE("a buffer's padding adds elements past its count that no check covers") {
    Json json = saxpy_json();
    json["buffers"]["x"]["padding"] = "n / 4 + 3";
    json["buffers"]["y"]["padding"] = 64;
    const Problem problem = parse(json);
    const auto buffers = resolve_buffers(problem, n_key(1000));
    REQUIRE(buffers);
    CHECK(buffers.value()[0].count == 1253);
    CHECK(buffers.value()[0].bytes == 1253 * 4);
    CHECK(buffers.value()[0].padding == 253);
    CHECK(buffers.value()[1].count == 1064);
    CHECK(buffers.value()[1].padding == 64);
    CHECK(buffers.value()[1].checked == std::pair<std::uint64_t, std::uint64_t>{0, 1000});

    // A checked range is one of the logical elements: it may not reach into the padding.
    json["reference"]["compare"]["y"]["range"] = {0, 1001};
    const auto past = resolve_buffers(parse(json), n_key(1000));
    REQUIRE_FALSE(past);
    CHECK(past.error() ==
          "/reference/compare/y/range: [0, 1001] for n=1000 is not a range of buffer 'y' (1000 "
          "elements); expected 0 <= begin < end <= its count");

    // A padding that goes negative for a key is that key's error, naming where it was given.
    json["reference"]["compare"]["y"].erase("range");
    json["buffers"]["x"]["padding"] = "1024 - n";
    const auto negative = resolve_buffers(parse(json), n_key(4096));
    REQUIRE_FALSE(negative);
    CHECK(negative.error() ==
          "/buffers/x/padding: buffer 'x' would have -3072 elements of "
          "padding for n=4096; expected a padding >= 0");
    CHECK(resolve_buffers(parse(json), n_key(1000)).value()[0].padding == 24);
}

TEST_CASE("an f16 iota that would run past 65504 for a key is that key's error") {
    Json json = saxpy_json();
    json["buffers"]["x"]["type"] = "f16";
    json["buffers"]["x"]["init"] = {{"iota", {{"start", -100}, {"step", 64}}}};
    const Problem problem = parse(json);
    // n = 1000: up to -100 + 64 * 999 = 63836, within f16's range.
    REQUIRE(resolve_buffers(problem, n_key(1000)));
    const auto past = resolve_buffers(problem, n_key(4096));
    REQUIRE_FALSE(past);
    CHECK(past.error() ==
          "/buffers/x/init/iota: element 4095 of buffer 'x' would be 261980 for "
          "n=4096, beyond what f16 holds (a magnitude at most 65504); expected a "
          "start and step that keep every element within it");
}

TEST_CASE("an f32 iota past the largest float names the bound exactly") {
    Json json = saxpy_json();
    json["buffers"]["x"]["init"] = {{"iota", {{"start", 3e38}, {"step", 1e36}}}};
    const auto past = resolve_buffers(parse(json), n_key(1000));
    REQUIRE_FALSE(past);
    CHECK(contains(past.error(),
                   "beyond what f32 holds (a magnitude at most "
                   "3.4028234663852886e+38)"));
}

TEST_CASE("a candidate resolves to typed specializations, dispatch size and push-constant bytes") {
    const Problem problem = parse(saxpy_json());
    const ProblemKey key = n_key(1000);
    const auto buffers = resolve_buffers(problem, key).value();
    const auto resolved = resolve_candidate(problem, key, 1, buffers);
    REQUIRE(resolved);
    CHECK(resolved.value().name == "saxpy[WG=64]");
    REQUIRE(resolved.value().dispatches.size() == 1);
    const ResolvedDispatch& candidate = resolved.value().dispatches[0];
    CHECK(candidate.entry == "main");
    REQUIRE(candidate.module);
    REQUIRE(candidate.specializations.size() == 1);
    CHECK(candidate.specializations[0].id == 0);
    CHECK(std::get<std::uint32_t>(candidate.specializations[0].value) == 64);
    CHECK(candidate.workgroup_size == std::array<std::uint32_t, 3>{64, 1, 1});
    CHECK(candidate.workgroup_counts == std::array<std::uint32_t, 3>{16, 1, 1});
    REQUIRE(candidate.push_constants.size() == 8);
    float alpha = 0;
    std::uint32_t n = 0;
    std::memcpy(&alpha, candidate.push_constants.data(), 4);
    std::memcpy(&n, candidate.push_constants.data() + 4, 4);
    CHECK(alpha == 2.0f);
    CHECK(n == 1000);
    REQUIRE(candidate.bindings.size() == 2);
    CHECK(candidate.bindings[1].binding == 1);
    CHECK(candidate.bindings[1].buffer == 1);
    CHECK(candidate.bindings[1].type == spvtune::vulkan::DescriptorType::storage_buffer);
}

TEST_CASE("a float push constant takes a real value computed from the key (an ALiBi slope)") {
    Json json = saxpy_json();
    json["candidates"][0]["push_constants"][0]["value"] = "pow(2.0, -8.0 * 4 / n) * sqrt(0.25)";
    const Problem problem = parse(json);
    const ProblemKey key = n_key(16);
    const auto buffers = resolve_buffers(problem, key).value();
    const auto resolved = resolve_candidate(problem, key, 0, buffers);
    REQUIRE(resolved);
    float slope = 0;
    std::memcpy(&slope, resolved.value().dispatches.at(0).push_constants.data(), 4);
    CHECK(slope == doctest::Approx(0.5 * 0.25));  // 2^(-32/16) = 0.25, times 0.5
}

TEST_CASE("a key constraint that is false skips the candidate for that key with the reason") {
    Json json = saxpy_json();
    json["candidates"][0]["constraints"] = Json::array({"n % WG == 0"});
    const Problem problem = parse(json);
    const auto buffers = resolve_buffers(problem, n_key(1000)).value();
    const auto skipped = resolve_candidate(problem, n_key(1000), 1, buffers);
    REQUIRE_FALSE(skipped);
    CHECK(skipped.error() == "constraint 'n % WG == 0' is false for n=1000");
    const auto buffers_4096 = resolve_buffers(problem, n_key(4096)).value();
    CHECK(resolve_candidate(problem, n_key(4096), 1, buffers_4096));
}

TEST_CASE("evaluation errors and bad values are skip reasons naming the expression") {
    Json json = saxpy_json();
    json["candidates"][0]["workgroups"][1] = "n / (n - 1000)";
    json["candidates"][0]["priority"] = "n > 2000 ? -1 : 1";
    const Problem problem = parse(json);
    const auto buffers = resolve_buffers(problem, n_key(1000)).value();
    const auto failed = resolve_candidate(problem, n_key(1000), 0, buffers);
    REQUIRE_FALSE(failed);
    CHECK(failed.error() ==
          "/candidates/0/workgroups/1: 'n / (n - 1000)': column 3: division by "
          "zero");
    const auto buffers_4096 = resolve_buffers(problem, n_key(4096)).value();
    const auto negative = resolve_candidate(problem, n_key(4096), 0, buffers_4096);
    REQUIRE_FALSE(negative);
    CHECK(negative.error() == "priority is -1 for this key: never run");
}

TEST_CASE("buffer counts must be positive integers for the key") {
    Json json = saxpy_json();
    json["buffers"]["x"]["count"] = "n - 2000";
    const Problem problem = parse(json);
    const auto buffers = resolve_buffers(problem, n_key(1000));
    REQUIRE_FALSE(buffers);
    CHECK(buffers.error() ==
          "/buffers/x/count: buffer 'x' would have -1000 elements for n=1000; "
          "expected a count > 0");
    json["buffers"]["x"]["count"] = "n - 1000";
    const auto empty = resolve_buffers(parse(json), n_key(1000));
    REQUIRE_FALSE(empty);
    CHECK(empty.error() ==
          "/buffers/x/count: buffer 'x' would have 0 elements for n=1000; expected a count > 0");
    json["buffers"]["x"]["count"] = "n - 999";
    const auto single = resolve_buffers(parse(json), n_key(1000));
    REQUIRE(single);
    CHECK(single.value()[0].count == 1);
    CHECK(single.value()[0].bytes == 4);
    json["buffers"]["x"]["count"] = "n / (n - 1000)";
    const auto divided = resolve_buffers(parse(json), n_key(1000));
    REQUIRE_FALSE(divided);
    CHECK(divided.error() == "/buffers/x/count: 'n / (n - 1000)': column 3: division by zero");
}

TEST_CASE("a buffer under a vec4[] view must hold whole vec4s for the key, or it is skipped") {
    Json json = saxpy_json();
    json["candidates"][0]["spirv"] = "saxpy_vec4.spv";
    json["candidates"][0]["specialization"]["VECS"] = 1;
    const Problem problem = parse(json);
    const auto buffers = resolve_buffers(problem, n_key(1000)).value();
    const auto whole = resolve_candidate(problem, n_key(1000), 0, buffers);
    REQUIRE(whole);
    CHECK(whole.value().dispatches.at(0).bindings.at(0).buffer ==
          0);  // bound as is: counts stay in f32
    CHECK(buffers.at(0).count == 1000);

    const auto ragged = resolve_buffers(problem, n_key(1001)).value();
    const auto skipped = resolve_candidate(problem, n_key(1001), 0, ragged);
    REQUIRE_FALSE(skipped);
    CHECK(skipped.error() ==
          "/candidates/0/bindings/0: buffer 'x' is 4004 bytes (1001 f32) for this key but "
          "set 0 binding 0 ('X') of saxpy_vec4.spv:main reads it as an array with a 16-byte "
          "stride; expected a size that is a multiple of 16 bytes (a count that is a multiple of "
          "4)");
}

TEST_CASE("an array of 12-byte structs views an f32 buffer of whole structs, not an f64 one") {
    Json json = saxpy_json();
    json["buffers"] = Json::parse(R"json({
        "points": {"type": "f32", "count": "3 * n", "role": "inout"}
    })json");
    json["candidates"][0] = Json::parse(R"json({
        "name": "points", "spirv": "struct_view.spv",
        "workgroups": ["ceil_div(n, 64)", 1, 1],
        "push_constants": [{"type": "u32", "value": "n"}],
        "bindings": {"0": "points"}
    })json");
    json["reference"] =
        Json::parse(R"json({"candidate": "points", "compare": {"points": {"exact": true}}})json");
    const Problem problem = parse(json);
    const auto buffers = resolve_buffers(problem, n_key(1000)).value();
    CHECK(resolve_candidate(problem, n_key(1000), 0, buffers));

    json["buffers"]["points"]["count"] = "n";
    const Problem ragged = parse(json);
    const auto ragged_buffers = resolve_buffers(ragged, n_key(1000)).value();
    const auto skipped = resolve_candidate(ragged, n_key(1000), 0, ragged_buffers);
    REQUIRE_FALSE(skipped);
    CHECK(contains(skipped.error(),
                   "buffer 'points' is 4000 bytes (1000 f32) for this key but "
                   "set 0 binding 0 ('Points') of struct_view.spv:main reads it "
                   "as an array with a 12-byte stride; expected a size that is "
                   "a multiple of 12 bytes (a count that is a multiple of 3)"));

    json["buffers"]["points"]["type"] = "f64";
    CHECK(contains(error_of(json),
                   "is an array with a 12-byte stride; expected a stride that is "
                   "a multiple of 8 bytes (whole elements)"));
}

TEST_CASE("keys from outside the problem are checked against its parameters") {
    const Problem problem = parse(saxpy_json());
    CHECK(check_key(problem, n_key(5)));
    CHECK(check_key(problem, ProblemKey({{"n", 5.0}})).error() ==
          "key n=5.0: parameter 'n' must be int");
    CHECK(
        check_key(problem, ProblemKey({{"n", std::int64_t{5}}, {"m", std::int64_t{1}}})).error() ==
        "key m=1,n=5: unknown parameter 'm'");
    CHECK_FALSE(resolve_buffers(problem, ProblemKey()));
}

}  // namespace resolve_test
