#include "glsl/glsl_module.hpp"

#include <algorithm>

namespace spvtune::problem::detail {
namespace {

/// A define's value as source text: numbers as the expression language writes them, a boolean
/// as 1 or 0 (so `#if USE_VEC4` works), a string as its bare text (`"vec4"` -> vec4).
std::string define_text(const Value& value) {
    if (const auto* flag = std::get_if<bool>(&value)) {
        return *flag ? "1" : "0";
    }
    if (const auto* text = std::get_if<std::string>(&value)) {
        return *text;
    }
    return to_string(value);
}

}  // namespace

std::vector<GlslDefine> evaluate_defines(const StepDraft::Glsl& glsl, const Scope& scope,
                                         const StepDraft::Glsl::Define*& failed) {
    std::vector<GlslDefine> defines;
    for (const auto& define : glsl.defines) {
        failed = &define;
        defines.push_back({define.name, define_text(define.value.expression.evaluate(scope))});
    }
    failed = nullptr;
    std::sort(defines.begin(), defines.end(),
              [](const GlslDefine& a, const GlslDefine& b) { return a.name < b.name; });
    return defines;
}

std::string glsl_module_name(const std::string& file, const std::vector<GlslDefine>& defines) {
    std::string name = file;
    for (std::size_t i = 0; i < defines.size(); ++i) {
        name += (i == 0 ? "[" : ",") + defines[i].name + "=" + defines[i].value;
    }
    return defines.empty() ? name : name + "]";
}

std::shared_ptr<const vulkan::SpirvModule> build_glsl_module(const GlslCache& cache,
                                                             const GlslRequest& request,
                                                             const std::string& file,
                                                             GlslFailure& failure) {
    const GlslOutput output = cache.compile(request);
    const std::string defines = " with defines " + describe_defines(request.defines);
    if (!output.ok) {
        std::string errors = output.errors;
        for (auto at = errors.find('\n'); at != std::string::npos; at = errors.find('\n', at)) {
            errors.replace(at, 1, "; ");
        }
        failure = {"GLSL '" + file + "' does not compile", defines + ": " + errors};
        return nullptr;
    }
    try {
        return std::make_shared<const vulkan::SpirvModule>(
            vulkan::SpirvModule::from_words(output.words, glsl_module_name(file, request.defines)));
    } catch (const std::exception& error) {
        failure = {"GLSL '" + file + "' compiled",
                   defines + " is not valid SPIR-V: " + std::string(error.what())};
        return nullptr;
    }
}

}  // namespace spvtune::problem::detail
