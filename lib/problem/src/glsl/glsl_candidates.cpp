// Turns GLSL families into families with a compiled module, one per distinct set of defines
// its grid points give, as expand_spirv_templates does for one file per templated path. A
// family with a define of a key parameter is left to be compiled per key (PerKeyGlsl).

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

#include <spvtune/problem/glsl_cache.hpp>
#include <spvtune/problem/kernel_search.hpp>

#include "glsl/glsl_module.hpp"
#include "glsl/include_search.hpp"
#include "glsl/per_key_glsl.hpp"
#include "parse/problem_parser.hpp"

namespace spvtune::problem::detail {
namespace {

/// The point's defines, sorted by name; nothing when one does not evaluate (reported).
std::optional<std::vector<GlslDefine>> point_defines(Reader& reader, const StepDraft::Glsl& glsl,
                                                     const Candidate& candidate) {
    Scope scope;
    for (const auto& [name, value] : candidate.point) {
        scope.set(name, Value(value));
    }
    const StepDraft::Glsl::Define* failed = nullptr;
    try {
        return evaluate_defines(glsl, scope, failed);
    } catch (const ExpressionError& error) {
        reader.error(failed->value.pointer,
                     "define " + failed->name + " of " + candidate.name + ": " + error.message(),
                     error.render("    "));
        return std::nullopt;
    }
}

/// Whether a define of `glsl` uses a key parameter, so that its module depends on the key.
bool uses_key(const Problem& problem, const StepDraft::Glsl& glsl) {
    return std::any_of(glsl.defines.begin(), glsl.defines.end(), [&problem](const auto& define) {
        const auto& names = define.value.expression.variables();
        return std::any_of(names.begin(), names.end(), [&problem](const std::string& name) {
            return problem.find_parameter(name) != nullptr;
        });
    });
}

/// A GLSL step of a family with its source file and text.
struct Source {
    std::size_t step = 0;
    StepDraft::Glsl glsl;  // a copy: drafts grows while the family is compiled
    std::filesystem::path file;
    std::string text;
    std::string pointer;
};

/// Reads a `{"file": ...}` preamble into `glsl.preamble`, found like the GLSL source; false
/// (reported) when it cannot be found or read.
bool read_preamble_file(Reader& reader, StepDraft::Glsl& glsl, const std::string& pointer,
                        const LoadOptions& options) {
    if (glsl.preamble_file.empty()) {
        return true;
    }
    const std::string at = child(pointer, "file");
    const auto found = find_kernel(glsl.preamble_file, reader.file(), options.kernel_dirs);
    if (!found) {
        reader.error(at, kernel_not_found("preamble", glsl.preamble_file, reader.file(),
                                          options.kernel_dirs));
        return false;
    }
    auto text = read_glsl_text(*found);
    if (!text) {
        reader.error(at, "cannot read preamble file '" + found->string() + "'");
        return false;
    }
    glsl.preamble = std::move(*text);
    return true;
}

/// The family's GLSL steps with their sources; nothing when one cannot be found or read (each
/// such step reported).
std::optional<std::vector<Source>> read_sources(Reader& reader, FamilyDraft& draft,
                                                const LoadOptions& options) {
    std::vector<Source> sources;
    bool readable = true;
    for (std::size_t s = 0; s < draft.steps.size(); ++s) {
        StepDraft& step = draft.steps[s];
        if (!step.glsl) {
            continue;
        }
        if (!read_preamble_file(reader, *step.glsl, step.at("preamble"), options)) {
            readable = false;
            continue;
        }
        const std::string pointer = step.at("glsl");
        const auto found = find_kernel(step.glsl->file, reader.file(), options.kernel_dirs);
        if (!found) {
            reader.error(pointer, kernel_not_found("GLSL", step.glsl->file, reader.file(),
                                                   options.kernel_dirs));
            readable = false;
            continue;
        }
        auto text = read_glsl_text(*found);
        if (!text) {
            reader.error(pointer, "cannot read GLSL file '" + found->string() + "'");
            readable = false;
            continue;
        }
        sources.push_back({s, *step.glsl, *found, std::move(*text), pointer});
    }
    if (!readable) {
        return std::nullopt;
    }
    return sources;
}

/// A GLSL step and the description of one set of its defines: one module.
using Slot = std::pair<std::size_t, std::string>;

/// What one candidate's point compiles to: a module per GLSL step.
struct PointModules {
    std::vector<Slot> slots;
    /// The slots' defines, a line each: the points with equal combinations share a family.
    std::string combination;
    /// Why the first of its modules that does not compile does not; empty when all compile.
    std::string failure;
};

/// Compiles the points of one GLSL family, each distinct set of defines once, and splits the
/// family in one per distinct combination of modules; a point whose module does not compile
/// is dropped with the compiler's reason.
class FamilyCompiler {
  public:
    FamilyCompiler(Reader& reader, Problem& problem, std::vector<FamilyDraft>& drafts,
                   const GlslCache& cache, std::size_t family, std::vector<Source> sources)
        : reader_(reader),
          problem_(problem),
          drafts_(drafts),
          cache_(cache),
          family_(family),
          sources_(std::move(sources)) {}

    void compile(std::vector<bool>& dropped) {
        for (std::size_t c = 0; c < problem_.candidates.size(); ++c) {
            Candidate& candidate = problem_.candidates[c];
            if (candidate.family != family_) {
                continue;
            }
            const std::optional<PointModules> point = modules_of(candidate);
            if (!point) {
                return;  // once per family: the other points likely fail alike
            }
            if (!point->failure.empty()) {
                dropped[c] = true;
                problem_.unavailable.push_back({candidate.name, point->failure});
                continue;
            }
            place(candidate, *point);
        }
        if (family_of_.empty() && !first_failure_.empty()) {
            reader_.error(sources_.front().pointer,
                          "no point of this candidate compiles; e.g. " + first_failure_);
        }
    }

  private:
    /// The candidate's modules, built when new; nothing when a define does not evaluate.
    std::optional<PointModules> modules_of(const Candidate& candidate) {
        PointModules point;
        for (const Source& source : sources_) {
            const auto defines = point_defines(reader_, source.glsl, candidate);
            if (!defines) {
                return std::nullopt;
            }
            const Slot slot(source.step, describe_defines(*defines));
            if (!module_of_.contains(slot) && !failure_of_.contains(slot)) {
                build(source, slot, *defines);
            }
            if (const auto failed = failure_of_.find(slot);
                failed != failure_of_.end() && point.failure.empty()) {
                point.failure = failed->second;
            }
            point.combination += slot.second + '\n';
            point.slots.push_back(slot);
        }
        return point;
    }

    void build(const Source& source, const Slot& slot, const std::vector<GlslDefine>& defines) {
        GlslFailure why;
        auto module =
            build_glsl_module(cache_,
                              {source.file, source.text, defines, source.glsl.include_dirs,
                               source.glsl.target, source.glsl.preamble},
                              source.glsl.file, why);
        if (module) {
            module_of_[slot] = std::move(module);
        } else {
            failure_of_[slot] = why.text();
            first_failure_ = first_failure_.empty() ? why.text() : first_failure_;
        }
    }

    /// Moves the candidate to the family of its combination, made on first sight: the first
    /// combination that compiles keeps the family, each other gets a copy.
    void place(Candidate& candidate, const PointModules& point) {
        auto [entry, added] = family_of_.try_emplace(point.combination, family_);
        if (added) {
            if (family_of_.size() > 1) {
                entry->second = problem_.families.size();
                problem_.families.push_back(problem_.families[family_]);
                drafts_.push_back(drafts_[family_]);
            }
            const std::size_t index = entry->second;
            for (std::size_t i = 0; i < sources_.size(); ++i) {
                const std::size_t s = sources_[i].step;
                DispatchStep& step = problem_.families[index].steps[s];
                step.module = module_of_[point.slots[i]];
                step.spirv = sources_[i].file;
                drafts_[index].steps[s].spirv = step.module->display_name();
            }
        }
        candidate.family = entry->second;
    }

    Reader& reader_;
    Problem& problem_;
    std::vector<FamilyDraft>& drafts_;
    const GlslCache& cache_;
    std::size_t family_;
    std::vector<Source> sources_;
    std::map<Slot, std::shared_ptr<const vulkan::SpirvModule>> module_of_;
    std::map<Slot, std::string> failure_of_;
    /// Each distinct combination over the steps: its family.
    std::map<std::string, std::size_t> family_of_;
    std::string first_failure_;
};

/// A define of a key parameter: every GLSL step of the family waits for its keys.
void compile_per_key(Problem& problem, const FamilyDraft& draft, std::size_t family,
                     std::vector<Source>& sources, const GlslCache& cache) {
    for (Source& source : sources) {
        DispatchStep& step = problem.families[family].steps[source.step];
        step.spirv = source.file;
        step.per_key_glsl = std::make_shared<const PerKeyGlsl>(
            draft.steps[source.step], source.file, std::move(source.text), cache);
    }
}

}  // namespace

void compile_glsl_candidates(Reader& reader, Problem& problem, std::vector<FamilyDraft>& drafts,
                             const LoadOptions& options) {
    const GlslCache cache(options.glsl_cache_dir);
    std::vector<bool> dropped(problem.candidates.size(), false);
    const std::size_t family_count = problem.families.size();
    for (std::size_t f = 0; f < family_count; ++f) {
        std::optional<std::vector<Source>> sources = read_sources(reader, drafts[f], options);
        if (!sources || sources->empty()) {
            continue;
        }
        if (std::any_of(sources->begin(), sources->end(), [&problem](const Source& source) {
                return uses_key(problem, source.glsl);
            })) {
            compile_per_key(problem, drafts[f], f, *sources, cache);
            continue;
        }
        FamilyCompiler(reader, problem, drafts, cache, f, std::move(*sources)).compile(dropped);
    }
    leave_out(reader, problem, dropped);
}

}  // namespace spvtune::problem::detail
