#include <fstream>
#include <set>

#include <doctest/doctest.h>

#include "problem_test_support.hpp"

namespace schema_test {

using namespace spvtune::problem;
using namespace spvtune::problem::testing;

// The JSON Schema is for editors; the parser is the truth. These checks keep the two in step:
// each object's fields in the schema are exactly the fields the parser accepts there.

namespace {

Json load_schema() {
    std::ifstream file(config_dir / "schemas" / "problem.schema.json");
    return Json::parse(file);
}

std::set<std::string> schema_fields(const Json& object) {
    std::set<std::string> names;
    for (const auto& [name, value] : object.at("properties").items()) {
        names.insert(name);
    }
    return names;
}

// The fields the parser lists when it meets an unknown one at `at` in the saxpy problem, with
// `base`'s fields also set there.
std::set<std::string> parser_fields(const Json::json_pointer& at,
                                    const Json& base = Json::object()) {
    Json json = saxpy_json();
    for (const auto& [name, value] : base.items()) {
        json[at][name] = value;
    }
    json[at]["zzz_unknown"] = 1;
    const std::string error = errors_of(json).at(0);
    const std::string marker = "expected one of: ";
    const auto start = error.find(marker);
    REQUIRE_MESSAGE(start != std::string::npos, error);
    std::set<std::string> names;
    std::string rest = error.substr(start + marker.size());
    for (std::size_t comma; (comma = rest.find(", ")) != std::string::npos;
         rest = rest.substr(comma + 2)) {
        names.insert(rest.substr(0, comma));
    }
    names.insert(rest);
    return names;
}

}  // namespace

TEST_CASE("the schema's objects have exactly the fields the parser accepts") {
    const Json schema = load_schema();
    const Json& defs = schema.at("$defs");
    CHECK(schema_fields(schema) == parser_fields(Json::json_pointer("")));
    CHECK(schema_fields(defs.at("candidate")) ==
          parser_fields(Json::json_pointer("/candidates/0")));
    // "defaults" and each variant take a candidate's fields less "name" and "variants", and plus
    // "name" for a variant; the schema says so with "not" and "required".
    std::set<std::string> layer_fields = schema_fields(defs.at("candidate"));
    layer_fields.erase("name");
    layer_fields.erase("variants");
    CHECK(parser_fields(Json::json_pointer("/defaults")) == layer_fields);
    layer_fields.insert("name");
    CHECK(parser_fields(Json::json_pointer("/candidates/0/variants/0"), {{"name", "v"}}) ==
          layer_fields);
    CHECK(schema.at("properties").at("defaults").at("$ref") == "#/$defs/candidate");
    CHECK(defs.at("candidate")
              .at("properties")
              .at("variants")
              .at("oneOf")
              .at(0)
              .at("items")
              .at("$ref") == "#/$defs/candidate");
    CHECK(schema_fields(defs.at("buffer")) == parser_fields(Json::json_pointer("/buffers/x")));
    CHECK(schema_fields(defs.at("parameter")) ==
          parser_fields(Json::json_pointer("/parameters/n")));
    CHECK(schema_fields(defs.at("parameter").at("properties").at("bucket")) ==
          parser_fields(Json::json_pointer("/parameters/n/bucket")));
    CHECK(schema_fields(defs.at("comparison")) ==
          parser_fields(Json::json_pointer("/reference/compare/y")));
    CHECK(schema_fields(schema.at("properties").at("reference")) ==
          parser_fields(Json::json_pointer("/reference")));
    CHECK(schema_fields(schema.at("properties").at("keys")) ==
          parser_fields(Json::json_pointer("/keys")));
    CHECK(schema_fields(schema.at("properties").at("settings")) ==
          parser_fields(Json::json_pointer("/settings")));
}

TEST_CASE("the schema requires what the parser requires") {
    const Json schema = load_schema();
    for (const auto& field : schema.at("required")) {
        const std::string name = field.get<std::string>();
        CAPTURE(name);
        Json json = saxpy_json();
        json.erase(name);
        CHECK(contains(errors_of(json).at(0), ": missing required field '" + name + "'"));
    }
    // The schema cannot say "spirv and workgroups from some layer"; it requires the name.
    for (const auto& field : schema.at("properties").at("candidates").at("items").at("required")) {
        const std::string name = field.get<std::string>();
        CAPTURE(name);
        Json json = saxpy_json();
        json["candidates"][0].erase(name);
        CHECK(contains(errors_of(json).at(0),
                       "/candidates/0: missing required field '" + name + "'"));
    }
    for (const std::string name : {"spirv", "workgroups"}) {
        CAPTURE(name);
        Json json = saxpy_json();
        json["candidates"][0].erase(name);
        CHECK(contains(errors_of(json).at(0),
                       "/candidates/0: missing required field '" + name + "'"));
    }
}

}  // namespace schema_test
