// Turns GLSL families into families with a compiled module, one per distinct set of defines
// its grid points give, as expand_spirv_templates does for one file per templated path. A
// family with a define of a key parameter is left to be compiled per key (PerKeyGlsl).

#include <algorithm>
#include <map>

#include <spvtune/problem/glsl_cache.hpp>
#include <spvtune/problem/kernel_search.hpp>

#include "glsl/glsl_module.hpp"
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

}  // namespace

void compile_glsl_candidates(Reader& reader, Problem& problem, std::vector<FamilyDraft>& drafts,
                             const LoadOptions& options) {
    const GlslCache cache(options.glsl_cache_dir);
    std::vector<bool> dropped(problem.candidates.size(), false);
    const std::size_t family_count = problem.families.size();
    for (std::size_t f = 0; f < family_count; ++f) {
        // Each GLSL step with its source file and text.
        struct Source {
            std::size_t step = 0;
            StepDraft::Glsl glsl;  // a copy: drafts grows below
            std::filesystem::path file;
            std::string text;
            std::string pointer;
        };
        std::vector<Source> sources;
        bool readable = true;
        for (std::size_t s = 0; s < drafts[f].steps.size(); ++s) {
            const StepDraft& step = drafts[f].steps[s];
            if (!step.glsl) {
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
            auto text = read_glsl_source(*found);
            if (!text) {
                reader.error(pointer, "cannot read GLSL file '" + found->string() + "'");
                readable = false;
                continue;
            }
            sources.push_back({s, *step.glsl, *found, std::move(*text), pointer});
        }
        if (sources.empty() || !readable) {
            continue;
        }
        // A define of a key parameter: every GLSL step of the candidate waits for its keys.
        if (std::any_of(sources.begin(), sources.end(), [&problem](const Source& source) {
                return uses_key(problem, source.glsl);
            })) {
            for (Source& source : sources) {
                DispatchStep& step = problem.families[f].steps[source.step];
                step.spirv = source.file;
                step.per_key_glsl = std::make_shared<const PerKeyGlsl>(
                    drafts[f].steps[source.step], source.file, std::move(source.text), cache);
            }
            continue;
        }
        // Each step's distinct set of defines: its module, or why it does not compile.
        std::map<std::pair<std::size_t, std::string>, std::shared_ptr<const vulkan::SpirvModule>>
            module_of;
        std::map<std::pair<std::size_t, std::string>, std::string> failure_of;
        // Each distinct combination over the steps: its family.
        std::map<std::string, std::size_t> family_of;
        std::string first_failure;
        bool evaluated = true;
        for (std::size_t c = 0; c < problem.candidates.size() && evaluated; ++c) {
            Candidate& candidate = problem.candidates[c];
            if (candidate.family != f) {
                continue;
            }
            std::string combination;
            std::string failure;
            std::vector<std::pair<std::size_t, std::string>> slots;
            for (const Source& source : sources) {
                const auto defines = point_defines(reader, source.glsl, candidate);
                if (!defines) {
                    evaluated = false;  // once per family: the other points likely fail alike
                    break;
                }
                const auto slot = std::make_pair(source.step, describe_defines(*defines));
                if (!module_of.contains(slot) && !failure_of.contains(slot)) {
                    GlslFailure why;
                    auto module = build_glsl_module(cache,
                                                    {source.file, source.text, *defines,
                                                     source.glsl.include_dirs, source.glsl.target},
                                                    source.glsl.file, why);
                    if (module) {
                        module_of[slot] = std::move(module);
                    } else {
                        failure_of[slot] = why.text();
                        first_failure = first_failure.empty() ? why.text() : first_failure;
                    }
                }
                if (const auto failed = failure_of.find(slot);
                    failed != failure_of.end() && failure.empty()) {
                    failure = failed->second;
                }
                combination += slot.second + '\n';
                slots.push_back(slot);
            }
            if (!evaluated) {
                break;
            }
            if (!failure.empty()) {
                dropped[c] = true;
                problem.unavailable.push_back({candidate.name, failure});
                continue;
            }
            auto [entry, added] = family_of.try_emplace(combination, f);
            if (added) {
                // The first combination that compiles keeps family f; each other gets a copy.
                if (family_of.size() > 1) {
                    entry->second = problem.families.size();
                    problem.families.push_back(problem.families[f]);
                    drafts.push_back(drafts[f]);
                }
                const std::size_t index = entry->second;
                for (std::size_t i = 0; i < sources.size(); ++i) {
                    const std::size_t s = sources[i].step;
                    problem.families[index].steps[s].module = module_of[slots[i]];
                    problem.families[index].steps[s].spirv = sources[i].file;
                    drafts[index].steps[s].spirv =
                        problem.families[index].steps[s].module->display_name();
                }
            }
            candidate.family = entry->second;
        }
        if (evaluated && family_of.empty() && !first_failure.empty()) {
            reader.error(sources.front().pointer,
                         "no point of this candidate compiles; e.g. " + first_failure);
        }
    }
    leave_out(reader, problem, dropped);
}

}  // namespace spvtune::problem::detail
