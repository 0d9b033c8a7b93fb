#pragma once

// What compiling a GLSL step needs, whether it is compiled per grid point when the problem
// loads (compile_glsl_candidates) or per key when a key is resolved (PerKeyGlsl).

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <spvtune/problem/glsl_cache.hpp>
#include <spvtune/problem/scope.hpp>
#include <spvtune/vulkan/spirv_module.hpp>

#include "parse/problem_parser.hpp"

namespace spvtune::problem::detail {

/// The step's defines evaluated in `scope`, sorted by name. Throws ExpressionError; `failed`
/// then points at the define that did not evaluate.
std::vector<GlslDefine> evaluate_defines(const StepDraft::Glsl& glsl, const Scope& scope,
                                         const StepDraft::Glsl::Define*& failed);

/// "reduce.comp[BLOCK=64,VEC=4]": the module's name in messages, one per set of defines.
std::string glsl_module_name(const std::string& file, const std::vector<GlslDefine>& defines);

/// Why a GLSL module cannot be used, in two parts around where a caller says for what it was
/// compiled: "GLSL 'f.comp' does not compile" + " for key n=4" + " with defines N=4: ...".
struct GlslFailure {
    std::string head;
    std::string tail;
    std::string text(const std::string& context = {}) const { return head + context + tail; }
};

/// The compiled, validated module of `request` (from `cache` when it has it), or null with why
/// in `failure`: "GLSL 'file' does not compile with defines A=1: <glslang's errors>", the errors
/// "; "-separated so a skip reason stays on one line. `file` is as written.
std::shared_ptr<const vulkan::SpirvModule> build_glsl_module(const GlslCache& cache,
                                                             const GlslRequest& request,
                                                             const std::string& file,
                                                             GlslFailure& failure);

}  // namespace spvtune::problem::detail
