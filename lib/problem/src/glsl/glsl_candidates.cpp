// Turns GLSL families into families with a compiled module, one per distinct set of defines
// its grid points give, as expand_spirv_templates does for one file per templated path.

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include <spvtune/problem/glsl_cache.hpp>
#include <spvtune/problem/kernel_search.hpp>

#include "parse/problem_parser.hpp"

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

/// The point's defines, sorted by name; nothing when one does not evaluate (reported).
std::optional<std::vector<GlslDefine>> point_defines(Reader& reader, const StepDraft::Glsl& glsl,
                                                     const Candidate& candidate) {
    Scope scope;
    for (const auto& [name, value] : candidate.point) {
        scope.set(name, Value(value));
    }
    std::vector<GlslDefine> defines;
    for (const auto& define : glsl.defines) {
        try {
            defines.push_back({define.name, define_text(define.value.expression.evaluate(scope))});
        } catch (const ExpressionError& error) {
            reader.error(define.value.pointer,
                         "define " + define.name + " of " + candidate.name + ": " + error.message(),
                         error.render("    "));
            return std::nullopt;
        }
    }
    std::sort(defines.begin(), defines.end(),
              [](const GlslDefine& a, const GlslDefine& b) { return a.name < b.name; });
    return defines;
}

/// "reduce.comp[BLOCK=64,VEC=4]": the module's name in messages, one per set of defines.
std::string display_name(const std::string& file, const std::vector<GlslDefine>& defines) {
    std::string name = file;
    for (std::size_t i = 0; i < defines.size(); ++i) {
        name += (i == 0 ? "[" : ",") + defines[i].name + "=" + defines[i].value;
    }
    return defines.empty() ? name : name + "]";
}

/// The compiled, validated module, or why there is none (glslang's errors one per line become
/// "; "-separated, so a skip reason stays on one line).
std::shared_ptr<const vulkan::SpirvModule> build(const GlslCache& cache, const GlslRequest& request,
                                                 const std::string& file, std::string& failure) {
    const GlslOutput output = cache.compile(request);
    const std::string defines = "with defines " + describe_defines(request.defines);
    if (!output.ok) {
        std::string errors = output.errors;
        for (auto at = errors.find('\n'); at != std::string::npos; at = errors.find('\n', at)) {
            errors.replace(at, 1, "; ");
        }
        failure = "GLSL '" + file + "' does not compile " + defines + ": " + errors;
        return nullptr;
    }
    try {
        return std::make_shared<const vulkan::SpirvModule>(
            vulkan::SpirvModule::from_words(output.words, display_name(file, request.defines)));
    } catch (const std::exception& error) {
        failure =
            "GLSL '" + file + "' compiled " + defines + " is not valid SPIR-V: " + error.what();
        return nullptr;
    }
}

std::optional<std::string> read_source(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return in.bad() || !in.is_open() ? std::nullopt : std::optional(text.str());
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
            auto text = read_source(*found);
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
                    std::string why;
                    auto module = build(cache,
                                        {source.file, source.text, *defines,
                                         source.glsl.include_dirs, source.glsl.target},
                                        source.glsl.file, why);
                    if (module) {
                        module_of[slot] = std::move(module);
                    } else {
                        failure_of[slot] = why;
                        first_failure = first_failure.empty() ? why : first_failure;
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
