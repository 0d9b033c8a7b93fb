// The fields of a candidate whose module is GLSL source: "glsl", "defines", "include_dirs" and
// "glsl_target". Compiling waits for compile_glsl_candidates, once the grid is expanded.

#include <spvtune/problem/expression_error.hpp>

#include "problem_parser.hpp"

namespace spvtune::problem::detail {
namespace {

/// Macro text at `pointer` as a string literal the expression language gives back unchanged
/// (a define of a string is its bare text). Nothing when it is not one line of text.
std::optional<Expression> macro_text(Reader& reader, const Json& json, const std::string& pointer) {
    const auto text = reader.string(json, pointer);
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

/// A define's `{"text": "..."}`: the text as it is.
std::optional<Expression> define_text(Reader& reader, const Json& json, const std::string& at) {
    if (!reader.object(json, at, {"text"}, {}) || !json.contains("text")) {
        return std::nullopt;
    }
    return macro_text(reader, json["text"], child(at, "text"));
}

/// `SCALE(v)` or `MAD(a, b, c)`: a function-like macro's name and parameters, written as GLSL's
/// preprocessor needs them (no space before the parenthesis, none around the commas); nothing
/// when `key` is not one.
std::optional<std::string> function_like_macro(std::string_view key) {
    const auto open = key.find('(');
    if (open == std::string_view::npos || key.back() != ')' ||
        !is_identifier(key.substr(0, open))) {
        return std::nullopt;
    }
    std::string name(key.substr(0, open + 1));
    std::string_view parameters = key.substr(open + 1, key.size() - open - 2);
    const auto trimmed = [](std::string_view text) {
        const auto first = text.find_first_not_of(" \t");
        const auto last = text.find_last_not_of(" \t");
        return first == std::string_view::npos ? std::string_view()
                                               : text.substr(first, last - first + 1);
    };
    if (!trimmed(parameters).empty()) {
        for (bool first = true;; first = false) {
            const auto comma = parameters.find(',');
            const std::string_view parameter = trimmed(parameters.substr(0, comma));
            if (!is_identifier(parameter)) {
                return std::nullopt;
            }
            name += (first ? "" : ",") + std::string(parameter);
            if (comma == std::string_view::npos) {
                break;
            }
            parameters.remove_prefix(comma + 1);
        }
    }
    return name + ')';
}

void parse_defines(Reader& reader, const Json& json, const std::string& pointer,
                   const std::vector<std::string>& variables, StepDraft::Glsl& glsl) {
    if (!reader.is_type(json, pointer, json.is_object(),
                        "an object (macro name -> value expression or {\"text\": ...})")) {
        return;
    }
    for (const auto& [name, value] : json.items()) {
        const std::string at = child(pointer, name);
        if (name.find('(') != std::string::npos) {
            // A function-like macro's value is macro text, as written: "((v) * 4.0)".
            const auto macro = function_like_macro(name);
            if (!macro) {
                reader.error(at,
                             "expected a function-like macro name such as 'SCALE(v)' or "
                             "'MAD(a, b, c)' (an identifier, then identifiers in "
                             "parentheses), found '" +
                                 name + "'");
                continue;
            }
            if (auto text = value.is_object() ? define_text(reader, value, at)
                                              : macro_text(reader, value, at)) {
                glsl.defines.push_back({*macro, {std::move(*text), at}});
            }
            continue;
        }
        if (!reader.identifier(name, at, "a macro name")) {
            continue;
        }
        // Not a step's iteration variable: a module serves every repetition of its step.
        auto expression = value.is_object() ? define_text(reader, value, at)
                                            : reader.expression(value, at, variables,
                                                                candidate_scope("a define"));
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

/// `"preamble"`: text placed after the defines, before the source (a project's macros), or
/// `{"file": "macros.glsl"}`, read when the candidate is compiled.
void parse_preamble(Reader& reader, const Json& json, const std::string& pointer,
                    StepDraft::Glsl& glsl) {
    if (json.is_object()) {
        if (reader.object(json, pointer, {"file"}, {}) && json.contains("file")) {
            glsl.preamble_file = reader.path(json["file"], child(pointer, "file")).value_or("");
        }
        return;
    }
    if (!reader.is_type(json, pointer, json.is_string(),
                        "the preamble's text, or {\"file\": \"path\"}")) {
        return;
    }
    glsl.preamble = json.get<std::string>();
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
    if (values.contains("preamble")) {
        parse_preamble(reader, values["preamble"], at("preamble"), glsl);
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
