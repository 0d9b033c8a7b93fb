#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include <spvtune/problem/glsl_cache.hpp>
#include <spvtune/problem/problem.hpp>
#include <spvtune/problem/scope.hpp>
#include <spvtune/tune/result.hpp>

#include "glsl/glsl_module.hpp"
#include "parse/problem_parser.hpp"

namespace spvtune::problem::detail {

/// A GLSL step of a candidate whose defines use key parameters. Its SPIR-V is known only once a
/// key is, so it is compiled when a key is resolved, once per distinct set of define values
/// (kept for the process, and on disk through the GLSL cache), and checked against the step
/// then as a .spv file is when the problem loads.
class PerKeyGlsl {
  public:
    /// `draft` is the step as written (its glsl set); `file` the source found, `source` its text.
    PerKeyGlsl(StepDraft draft, std::filesystem::path file, std::string source, GlslCache cache);

    /// What every key's module is made from, known without a key: the source text, the text of
    /// each file it may include, the define expressions, the target and glslang's version.
    std::uint64_t identity() const noexcept { return identity_; }

    /// `step` (the family's step this one belongs to) for the key and grid point in `scope`: a
    /// copy with the module compiled for the define values, checked against it (bindings, push
    /// constants) and with its specialization entries attached. Fails with why, naming `key`
    /// and the defines: a define that does not evaluate, glslang's errors, or a module that does
    /// not fit the step.
    tune::Result<std::shared_ptr<const DispatchStep>> step_for(const Problem& problem,
                                                               const DispatchStep& step,
                                                               const Scope& scope,
                                                               const std::string& key) const;

  private:
    struct Built {
        std::shared_ptr<const DispatchStep> step;
        GlslFailure failure;  ///< when there is no step
    };

    Built build(const Problem& problem, const DispatchStep& step,
                const std::vector<GlslDefine>& defines) const;

    StepDraft draft_;
    std::filesystem::path file_;
    std::string source_;
    GlslCache cache_;
    std::uint64_t identity_ = 0;
    mutable std::mutex mutex_;
    /// By the define values.
    mutable std::map<std::string, Built> built_;
};

}  // namespace spvtune::problem::detail
