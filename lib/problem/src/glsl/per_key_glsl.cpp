#include "glsl/per_key_glsl.hpp"

#include <spvtune/base/digest.hpp>
#include <spvtune/problem/glsl_compiler.hpp>

#include "glsl/include_search.hpp"

namespace spvtune::problem::detail {
namespace {

/// Key-independent, and the same on every machine: nothing in it is an absolute path.
std::uint64_t identity_of(const StepDraft::Glsl& glsl, const std::filesystem::path& file,
                          const std::string& source) {
    base::Fnv1a digest;
    digest.add_field("glsl per key").add_field(glslang_version());
    digest.add(static_cast<std::uint64_t>(glsl.target)).add_field(source);
    for (const ScannedInclude& include : scan_glsl_includes(file, source, glsl.include_dirs)) {
        digest.add_field(include.header).add(std::uint64_t{include.text.has_value()});
        digest.add_field(include.text.value_or(""));
    }
    digest.add(static_cast<std::uint64_t>(glsl.defines.size()));
    for (const auto& define : glsl.defines) {
        digest.add_field(define.name).add_field(define.value.expression.text());
    }
    if (!glsl.preamble.empty()) {
        digest.add_field("preamble").add_field(glsl.preamble);
    }
    return digest.value();
}

}  // namespace

PerKeyGlsl::PerKeyGlsl(StepDraft draft, std::filesystem::path file, std::string source,
                       GlslCache cache)
    : draft_(std::move(draft)),
      file_(std::move(file)),
      source_(std::move(source)),
      cache_(std::move(cache)),
      identity_(identity_of(*draft_.glsl, file_, source_)) {}

tune::Result<std::shared_ptr<const DispatchStep>> PerKeyGlsl::step_for(
    const Problem& problem, const DispatchStep& step, const Scope& scope,
    const std::string& key) const {
    const StepDraft::Glsl::Define* failed = nullptr;
    std::vector<GlslDefine> defines;
    try {
        defines = evaluate_defines(*draft_.glsl, scope, failed);
    } catch (const ExpressionError& error) {
        return tune::fail(failed->value.pointer + ": '" + error.expression() +
                          "': " + error.what());
    }
    // Compiles are serialised in glslang's driver anyway; holding the lock through one keeps
    // two threads from compiling the same defines.
    const std::lock_guard lock(mutex_);
    std::string values;  // unambiguous, whatever the values hold
    for (const GlslDefine& define : defines) {
        values += define.name + '\0' + define.value + '\0';
    }
    auto [slot, added] = built_.try_emplace(values);
    if (added) {
        slot->second = build(problem, step, defines);
    }
    if (!slot->second.step) {
        return tune::fail(slot->second.failure.text(" for key " + key));
    }
    return slot->second.step;
}

PerKeyGlsl::Built PerKeyGlsl::build(const Problem& problem, const DispatchStep& step,
                                    const std::vector<GlslDefine>& defines) const {
    const StepDraft::Glsl& glsl = *draft_.glsl;
    Built built;
    auto module = build_glsl_module(
        cache_, {file_, source_, defines, glsl.include_dirs, glsl.target, glsl.preamble}, glsl.file,
        built.failure);
    if (!module) {
        return built;
    }
    auto compiled = std::make_shared<DispatchStep>(step);
    compiled->per_key_glsl.reset();  // the copy is kept here: no cycle
    compiled->module = std::move(module);
    StepDraft draft = draft_;
    draft.spirv = compiled->module->display_name();  // names the shader in the messages
    Reader reader(problem.file);
    attach_module(reader, problem, *compiled, draft);
    if (reader.error_count() != 0) {
        std::string faults;
        for (const Diagnostic& fault : reader.diagnostics()) {
            faults += (faults.empty() ? "" : "; ") + fault.pointer + ": " + fault.message;
        }
        built.failure = {
            "GLSL '" + glsl.file + "' compiled",
            " with defines " + describe_defines(defines) + " does not fit its step: " + faults};
        return built;
    }
    built.step = std::move(compiled);
    return built;
}

}  // namespace spvtune::problem::detail
