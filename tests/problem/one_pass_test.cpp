#include <algorithm>

#include <doctest/doctest.h>

#include "problem_test_support.hpp"

namespace one_pass_test {

using namespace spvtune::problem::testing;

// `check` promises every structural fault of a file at once: a fault in one section must not
// hide the faults of another, and a fault may suppress only the checks that depend on it.

namespace {

// Renames `field` of the object at `at` to `typo`, keeping its value.
void misspell(Json& json, const char* at, const char* field, const char* typo) {
    Json& object = json[Json::json_pointer(at)];
    object[typo] = object[field];
    object.erase(field);
}

std::string joined(const std::vector<std::string>& errors) {
    std::string all;
    for (const std::string& error : errors) {
        all += error + "\n";
    }
    return all;
}

bool any_contains(const std::vector<std::string>& errors, const std::string& part) {
    return std::any_of(errors.begin(), errors.end(),
                       [&part](const std::string& error) { return contains(error, part); });
}

}  // namespace

TEST_CASE("typos in settings, buffers, candidates and reference are reported in one pass") {
    Json json = saxpy_json();
    json["settings"] = {{"samples", 10}};
    misspell(json, "/settings", "samples", "sample");
    misspell(json, "/buffers/x", "role", "rol");
    json["candidates"][0]["entry"] = "main";
    misspell(json, "/candidates/0", "entry", "entri");
    misspell(json, "/reference", "candidate", "candidat");
    const auto errors = errors_of(json);
    CAPTURE(joined(errors));
    CHECK(any_contains(errors, "/settings/sample: unknown field 'sample'"));
    CHECK(any_contains(errors, "/buffers/x/rol: unknown field 'rol'"));
    CHECK(any_contains(errors, "/candidates/0/entri: unknown field 'entri'"));
    CHECK(any_contains(errors, "/reference/candidat: unknown field 'candidat'"));
}

TEST_CASE("a faulty parameter hides only the key checks, without noise about its name") {
    Json json = saxpy_json();
    json["parameters"]["n"]["type"] = "integr";
    json["buffers"]["x"]["type"] = "f33";
    json["candidates"][0]["bindings"]["1"] = "yy";
    const auto errors = errors_of(json);
    CAPTURE(joined(errors));
    REQUIRE(errors.size() == 3);
    CHECK(contains(errors[0], "/parameters/n/type: expected \"int\""));
    CHECK(contains(errors[1], "/buffers/x/type: unknown element type 'f33'"));
    CHECK(contains(errors[2], "/candidates/0/bindings/1: unknown buffer 'yy'"));
}

TEST_CASE("a faulty parameter does not hide a misspelt field of the keys") {
    Json json = saxpy_json();
    json["parameters"]["n"]["type"] = "integr";
    misspell(json, "/keys", "list", "lst");
    const auto errors = errors_of(json);
    CAPTURE(joined(errors));
    REQUIRE(errors.size() == 2);
    CHECK(contains(errors[0], "/parameters/n/type: expected \"int\""));
    CHECK(contains(errors[1], "/keys/lst: unknown field 'lst' (did you mean 'list'?)"));
}

TEST_CASE("a bucket on a float parameter does not hide the other sections' faults") {
    Json json = saxpy_json();
    json["parameters"]["n"]["type"] = "float";
    json["reference"]["compare"]["y"]["rtl"] = 1e-5;
    const auto errors = errors_of(json);
    CAPTURE(joined(errors));
    CHECK(any_contains(errors, "/parameters/n/bucket: only int parameters can be bucketed"));
    CHECK(any_contains(errors, "/reference/compare/y/rtl: unknown field 'rtl'"));
}

TEST_CASE("a faulty candidate hides only the reference's candidate, not its comparisons") {
    Json json = saxpy_json();
    json["candidates"][0]["bindings"]["1"] = "yy";
    json["reference"]["compare"]["x"] = {{"exact", true}};
    const auto errors = errors_of(json);
    CAPTURE(joined(errors));
    REQUIRE(errors.size() == 2);
    CHECK(contains(errors[0], "/candidates/0/bindings/1: unknown buffer 'yy'"));
    CHECK(contains(errors[1], "/reference/compare/x: buffer 'x' is an input"));
}

}  // namespace one_pass_test
