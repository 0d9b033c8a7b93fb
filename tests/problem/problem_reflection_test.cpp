#include <doctest/doctest.h>

#include <spvtune/problem/kernel_search.hpp>

#include "problem_test_support.hpp"

namespace problem_reflection_test {

using namespace spvtune::problem;
using namespace spvtune::problem::testing;

namespace {

// A problem over tests/problem/kernels/typed_spec.comp: data at 0.0, params (uniform) at 1.2.
Json typed_spec_json() {
    Json json = saxpy_json();
    json["buffers"] = Json::parse(R"json({
        "data": {"type": "f32", "count": "n", "role": "inout"},
        "params": {"type": "u32", "count": 1, "init": {"constant": 1000}, "role": "input"}
    })json");
    json["candidates"][0] = Json::parse(R"json({
        "name": "typed", "spirv": "typed_spec.spv",
        "specialization": {"0": 64, "shift": 3, "2": 0.5, "negate": true},
        "workgroups": ["ceil_div(n, 64)", 1, 1],
        "bindings": {"0.0": "data", "1.2": "params"}
    })json");
    json["reference"] = Json::parse(R"json({
        "candidate": "typed", "compare": {"data": {"atol": 0}}
    })json");
    return json;
}

}  // namespace

TEST_CASE("specialization constants are found by SpecId or by name with their declared types") {
    const Problem problem = parse(typed_spec_json());
    const auto& specialization = problem.families[0].steps.at(0).specialization;
    REQUIRE(specialization.size() == 4);
    CHECK(specialization[1].id == 1);
    CHECK(std::holds_alternative<std::int32_t>(specialization[1].declared));
    CHECK(std::holds_alternative<float>(specialization[2].declared));
    CHECK(std::holds_alternative<bool>(specialization[3].declared));
    REQUIRE(problem.families[0].steps.at(0).bindings.size() == 2);
    CHECK(problem.families[0].steps[0].bindings[1].set == 1);
    CHECK(problem.families[0].steps[0].bindings[1].binding == 2);
}

TEST_CASE("specialization values of the wrong type or range are errors before any key") {
    Json json = typed_spec_json();
    json["candidates"][0]["specialization"]["negate"] = 1;
    CHECK(contains(error_of(json),
                   "/candidates/0/specialization/negate: specialization "
                   "constant 3 (bool) of typed: expected a bool, got int 1"));
    json = typed_spec_json();
    json["candidates"][0]["specialization"]["shift"] = 1.5;
    CHECK(contains(error_of(json), "expected an int in the range of int32, got float 1.5"));
    json = typed_spec_json();
    json["candidates"][0]["specialization"]["0"] = -1;
    CHECK(contains(error_of(json),
                   "/candidates/0/specialization/0: specialization constant 0 "
                   "(uint32) of typed: expected an int in the range of uint32, "
                   "got int -1"));
    json = typed_spec_json();
    json["candidates"][0]["specialization"]["2"] = 1e300;
    CHECK(contains(error_of(json), "expected a number in the range of float32"));
}

TEST_CASE("unknown specialization constants list what the shader declares") {
    Json json = typed_spec_json();
    json["candidates"][0]["specialization"]["7"] = 1;
    CHECK(contains(error_of(json),
                   "/candidates/0/specialization/7: typed_spec.spv:main "
                   "declares no specialization constant with SpecId 7; it "
                   "declares: 0 (uint32), 1 'shift' (int32), 2 'scale' "
                   "(float32), 3 'negate' (bool)"));
    json = typed_spec_json();
    json["candidates"][0]["specialization"]["shfit"] = 1;
    CHECK(contains(error_of(json),
                   "no specialization constant named 'shfit' (did you mean "
                   "'shift'?)"));
    json = typed_spec_json();
    json["candidates"][0]["specialization"]["1"] = 1;
    CHECK(contains(error_of(json), "is given twice (by SpecId and by name)"));
}

TEST_CASE("bindings must match what the entry point uses") {
    Json json = saxpy_json();
    json["candidates"][0]["bindings"].erase("1");
    CHECK(contains(error_of(json),
                   "/candidates/0/bindings: set 0 binding 1 ('Y') (storage buffer) "
                   "that saxpy.spv:main uses is not bound"));
    json = saxpy_json();
    json["candidates"][0]["bindings"]["0.5"] = "x";
    CHECK(contains(error_of(json),
                   "/candidates/0/bindings/0.5: saxpy.spv:main uses no set 0 binding "
                   "5; expected one of the bindings it uses: set 0 binding 0 ('X'), "
                   "set 0 binding 1 ('Y')"));
    json = saxpy_json();
    json["buffers"]["x"]["type"] = "f64";
    CHECK(contains(error_of(json),
                   "/candidates/0/bindings/0: buffer 'x' holds f64 (8-byte "
                   "elements) but set 0 binding 0 ('X') of saxpy.spv:main is an "
                   "array with a 4-byte stride; expected a stride that is a multiple "
                   "of 8 bytes (whole elements)"));
    json = saxpy_json();
    json["candidates"][0]["spirv"] = "image_binding.spv";
    json["candidates"][0]["specialization"] = Json::object();
    CHECK(contains(errors_of(json).at(0),
                   "/candidates/0/bindings/0: set 0 binding 0 ('picture') of "
                   "image_binding.spv:main is a storage image; expected a "
                   "storage buffer or uniform buffer"));
}

// Real kernels read vec4[] (or arrays of structs) over a float buffer: one 16-byte element of
// the shader's array is four of the buffer's.
TEST_CASE("a runtime array whose stride is a multiple of the buffer's element size is a view") {
    Json json = saxpy_json();
    json["candidates"][0]["spirv"] = "saxpy_vec4.spv";
    json["candidates"][0]["specialization"]["VECS"] = 1;
    CHECK(errors_of(json).empty());
    json["buffers"]["y"]["type"] = "u8";
    json["reference"]["compare"]["y"] = Json::object();
    CHECK(errors_of(json).empty());
    json["buffers"]["x"]["type"] = "f64";
    CHECK(errors_of(json).empty());  // 16 bytes are two f64: whole elements
}

TEST_CASE("push constants must fill the shader's block exactly") {
    Json json = saxpy_json();
    json["candidates"][0]["push_constants"].erase(1);
    CHECK(contains(error_of(json),
                   "/candidates/0/push_constants: push constants too small: 4 "
                   "bytes given, the block of saxpy.spv:main is 8 bytes"));
    json = saxpy_json();
    json["candidates"][0]["push_constants"][1]["type"] = "u64";
    CHECK(contains(error_of(json),
                   "push constants too large: 16 bytes given, the block of "
                   "saxpy.spv:main is 8 bytes"));
}

TEST_CASE("the SPIR-V must exist, be valid and have the entry point") {
    Json json = saxpy_json();
    json["candidates"][0]["spirv"] = "missing.spv";
    const std::string error = error_of(json);
    CHECK(contains(error,
                   "/candidates/0/spirv: cannot find SPIR-V file 'missing.spv'; looked "
                   "in:\n    /nonexistent/missing.spv\n    " +
                       (test_kernel_dir / "missing.spv").string()));
    CHECK(contains(error, (builtin_kernel_dir() / "missing.spv").string()));
    json = saxpy_json();
    json["candidates"][0]["entry"] = "mian";
    CHECK(contains(error_of(json), "/candidates/0/entry: "));
    CHECK(contains(error_of(json), "mian"));
}

}  // namespace problem_reflection_test
