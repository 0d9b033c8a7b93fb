// The fields of a candidate whose module is GLSL source: "glsl", "defines", "include_dirs" and
// "glsl_target". Compiling waits for compile_glsl_candidates, once the grid is expanded.

#include "problem_parser.hpp"

namespace spvtune::problem::detail {
namespace {

void parse_defines(Reader& reader, const Json& json, const std::string& pointer,
                   const std::vector<std::string>& variables, StepDraft::Glsl& glsl) {
    if (!reader.is_type(json, pointer, json.is_object(),
                        "an object (macro name -> value expression)")) {
        return;
    }
    for (const auto& [name, value] : json.items()) {
        const std::string at = child(pointer, name);
        if (!reader.identifier(name, at, "a macro name")) {
            continue;
        }
        // Not a step's iteration variable: a module serves every repetition of its step.
        if (auto expression = reader.expression(value, at, variables,
                                                "a define may use the key and grid parameters")) {
            glsl.defines.push_back({name, {std::move(*expression), at}});
        }
    }
}

void parse_include_dirs(Reader& reader, const Json& json, const std::string& pointer,
                        StepDraft::Glsl& glsl) {
    if (!reader.is_type(json, pointer, json.is_array(),
                        "an array of directories (relative to the problem file)")) {
        return;
    }
    for (std::size_t i = 0; i < json.size(); ++i) {
        const auto dir = reader.path(json[i], child(pointer, i));
        if (!dir) {
            continue;
        }
        const std::filesystem::path resolved = reader.file().parent_path() / *dir;
        std::error_code ignored;
        if (!std::filesystem::is_directory(resolved, ignored)) {
            reader.error(child(pointer, i), "include directory '" + *dir +
                                                "' is not a directory (" + resolved.string() + ")");
            continue;
        }
        glsl.include_dirs.push_back(resolved);
    }
}

}  // namespace

void parse_glsl_fields(Reader& reader, const Json& values,
                       const std::map<std::string, std::string, std::less<>>& pointers,
                       const std::vector<std::string>& variables, StepDraft& draft) {
    if (!values.contains("glsl")) {
        return;
    }
    const auto at = [&pointers](const char* field) { return pointers.find(field)->second; };
    StepDraft::Glsl glsl;
    glsl.file = reader.path(values["glsl"], at("glsl")).value_or("");
    if (values.contains("defines")) {
        parse_defines(reader, values["defines"], at("defines"), variables, glsl);
    }
    if (values.contains("include_dirs")) {
        parse_include_dirs(reader, values["include_dirs"], at("include_dirs"), glsl);
    }
    if (values.contains("glsl_target")) {
        glsl.target = reader
                          .choice(values["glsl_target"], at("glsl_target"),
                                  {GlslTarget::vulkan1_0, GlslTarget::vulkan1_1,
                                   GlslTarget::vulkan1_2, GlslTarget::vulkan1_3})
                          .value_or(GlslTarget::vulkan1_1);
    }
    draft.glsl = std::move(glsl);
}

}  // namespace spvtune::problem::detail
