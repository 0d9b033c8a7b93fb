#pragma once

// The field names of a candidate, in one place: a candidate of one dispatch writes the dispatch
// fields beside its own, a candidate of several writes them in each of its "steps".

#include <span>
#include <string_view>

namespace spvtune::problem::detail {

/// The fields of one dispatch, as a candidate of one dispatch or a step gives them.
inline std::span<const std::string_view> dispatch_fields() {
    static constexpr std::string_view names[] = {
        "spirv", "glsl",       "defines",        "include_dirs",   "glsl_target", "preamble",
        "entry", "workgroups", "specialization", "push_constants", "bindings"};
    return names;
}

/// The fields only a GLSL dispatch has, "glsl" first.
inline std::span<const std::string_view> glsl_fields() {
    static constexpr std::string_view names[] = {"glsl", "defines", "include_dirs", "glsl_target",
                                                 "preamble"};
    return names;
}

/// The fields of an element of "steps": a dispatch's, plus how often it repeats and the name a
/// variant may change it by.
inline std::span<const std::string_view> step_fields() {
    static constexpr std::string_view names[] = {
        "spirv",          "glsl",     "defines",    "include_dirs",
        "glsl_target",    "entry",    "workgroups", "specialization",
        "push_constants", "bindings", "repeat",     "iteration",
        "preamble",       "name"};
    return names;
}

/// The fields `defaults` and a variant may give: every candidate field but "name" and
/// "variants".
inline std::span<const std::string_view> layer_fields() {
    static constexpr std::string_view names[] = {
        "spirv",          "workgroups",     "entry",        "grid",        "constraints",
        "specialization", "push_constants", "bindings",     "priority",    "requires",
        "glsl",           "defines",        "include_dirs", "glsl_target", "steps",
        "reference_only", "preamble",       "let"};
    return names;
}

/// A candidate's own fields beside "name": a layer's, plus its "variants".
inline std::span<const std::string_view> candidate_fields() {
    static constexpr std::string_view names[] = {
        "spirv",          "workgroups",     "entry",        "grid",        "constraints",
        "specialization", "push_constants", "bindings",     "priority",    "requires",
        "glsl",           "defines",        "include_dirs", "glsl_target", "steps",
        "variants",       "reference_only", "preamble",     "let"};
    return names;
}

}  // namespace spvtune::problem::detail
