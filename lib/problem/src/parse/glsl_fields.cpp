// The fields of a candidate whose module is GLSL source: "glsl", "defines", "include_dirs" and
// "glsl_target". Compiling waits for compile_glsl_candidates, once the grid is expanded.

#include <spvtune/problem/expression_error.hpp>

#include "problem_parser.hpp"

namespace spvtune::problem::detail {
namespace {

/// A define's `{"text": "..."}`: the text as it is, as a string literal the expression
/// language gives back unchanged (a define of a string is its bare text). Nothing when it is
/// not one line of text.
std::optional<Expression> define_text(Reader& reader, const Json& json, const std::string& at) {
    if (!reader.object(json, at, {"text"}, {}) || !json.contains("text")) {
        return std::nullopt;
    }
    const std::string pointer = child(at, "text");
    const auto text = reader.string(json["text"], pointer);
    if (!text) {
        return std::nullopt;
    }
    if (text->find_first_of("\n\r") != std::string::npos) {
        reader.error(pointer, "expected one line of macro text, found a line break");
        return std::nullopt;
    }
    std::string literal = "\"";
    for (const char c : *text) {
        literal += (c == '"' || c == '\\') ? std::string{'\\', c} : std::string{c};
    }
    try {
        return Expression::parse(literal + '"');
    } catch (const ExpressionError& error) {  // a character no string literal may hold
        reader.error(pointer, "expected macro text: " + error.message());
        return std::nullopt;
    }
}

void parse_defines(Reader& reader, const Json& json, const std::string& pointer,
                   const std::vector<std::string>& variables, StepDraft::Glsl& glsl) {
    if (!reader.is_type(json, pointer, json.is_object(),
                        "an object (macro name -> value expression or {\"text\": ...})")) {
        return;
    }
    for (const auto& [name, value] : json.items()) {
        const std::string at = child(pointer, name);
        if (!reader.identifier(name, at, "a macro name")) {
            continue;
        }
        // Not a step's iteration variable: a module serves every repetition of its step.
        auto expression = value.is_object()
                              ? define_text(reader, value, at)
                              : reader.expression(value, at, variables,
                                                  "a define may use the key and grid parameters");
        if (expression) {
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
