#pragma once

// The stages of load_problem(), in the order it runs them. Each stage reports what it finds to
// the Reader and carries on where it can, so one run shows as many faults as possible; a stage
// that needs an earlier one's results runs only when that one found nothing.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <spvtune/problem/glsl_compiler.hpp>
#include <spvtune/problem/problem.hpp>

#include "json_reader.hpp"

namespace spvtune::problem::detail {

/// What the JSON says of a dispatch step that only the SPIR-V can settle.
struct StepDraft {
    std::string pointer;  ///< the step's; the family's for a candidate of one dispatch
    /// Where each field was written: the step, or the candidate, its variant or the defaults.
    std::map<std::string, std::string, std::less<>> fields;
    /// The pointer of `field` where it was written, else where it would go in the step.
    std::string at(std::string_view field) const {
        const auto found = fields.find(field);
        return found != fields.end() ? found->second : pointer + "/" + std::string(field);
    }
    std::string spirv;  ///< as written
    /// Specialization entries as written: by SpecId ("0") or by name.
    struct Specialization {
        std::string label;
        LocatedExpression value;
    };
    std::vector<Specialization> specialization;
    /// A GLSL source instead of `spirv`: compiled per grid point by compile_glsl_candidates, or
    /// per key (PerKeyGlsl) when a define of the candidate uses a key parameter.
    struct Glsl {
        std::string file;  ///< as written
        struct Define {
            std::string name;
            LocatedExpression value;  ///< of the key and grid parameters
        };
        std::vector<Define> defines;
        std::vector<std::filesystem::path> include_dirs;  ///< resolved against the problem file
        GlslTarget target = GlslTarget::vulkan1_1;
        /// `"preamble"`: its text, or the file `{"file": ...}` names (as written), which
        /// compile_glsl_candidates reads into `preamble` (found like the source).
        std::string preamble;
        std::string preamble_file;
    };
    std::optional<Glsl> glsl;
};

/// What the JSON says of a candidate family that only the SPIR-V can settle.
struct FamilyDraft {
    std::string pointer;           ///< the family's: the candidate's, or its variant's
    std::vector<StepDraft> steps;  ///< one per CandidateFamily::steps entry
};

void parse_parameters(Reader& reader, const Json& json, Problem& problem);
void parse_keys(Reader& reader, const Json& json, Problem& problem);
/// What parse_keys checks first, for when the parameters are faulty: an object of list/grid.
bool check_keys_shape(Reader& reader, const Json& json);
void parse_buffers(Reader& reader, const Json& json, Problem& problem);
/// Fills problem.families (without module, spirv path or specialization) and their drafts:
/// one family per candidate, or per variant of a candidate; `defaults` (may be null) is the
/// top-level "defaults" object, under every candidate.
void parse_candidates(Reader& reader, const Json& json, const Json* defaults, Problem& problem,
                      std::vector<FamilyDraft>& drafts);
void parse_settings(Reader& reader, const Json& json, Problem& problem);

/// Expands every family's grid into problem.candidates, applying the constraints that use only
/// grid parameters; marks the others as per-key.
void expand_candidates(Reader& reader, Problem& problem);

/// Which earlier stages came through without a fault.
struct CleanStages {
    bool candidates = false;  ///< parsed and expanded
    bool buffers = false;
};

/// Resolves the reference candidate (needs clean, expanded candidates) and the comparisons
/// (need clean buffers); a part whose stage had a fault is skipped, so it adds no "unknown
/// candidate" noise, but the reference's own shape is always checked.
void parse_reference(Reader& reader, const Json& json, Problem& problem, CleanStages clean);

/// Resolves each `spirv` path with grid parameters (`"saxpy_{WG}.spv"`) per point: the points of
/// one file share a family (copies of the original), a point whose file is missing is left out
/// into problem.unavailable. Errors: a bad template, no point with a file, a reference left out.
void expand_spirv_templates(Reader& reader, Problem& problem, std::vector<FamilyDraft>& drafts,
                            const LoadOptions& options);

/// Reads the "glsl", "defines", "include_dirs" and "glsl_target" fields of a step whose
/// expressions may use `variables` (key then grid parameters).
void parse_glsl_fields(Reader& reader, const Json& values,
                       const std::map<std::string, std::string, std::less<>>& pointers,
                       const std::vector<std::string>& variables, StepDraft& draft);

/// Compiles each GLSL family per distinct set of defines its points give (through the disk
/// cache of options.glsl_cache_dir): the points of one set share a family (copies of the
/// original) whose module is the compiled SPIR-V; a point that does not compile is left out
/// into problem.unavailable with glslang's errors. A family with a define of a key parameter is
/// not compiled here: each of its GLSL steps gets a PerKeyGlsl, compiled as keys are resolved.
/// Errors: a missing source, a define that does not evaluate, no point that compiles, a
/// reference left out.
void compile_glsl_candidates(Reader& reader, Problem& problem, std::vector<FamilyDraft>& drafts,
                             const LoadOptions& options);

/// Removes the candidates marked in `dropped` (recorded in problem.unavailable beforehand) and
/// renumbers the reference; a reference left out is an error.
void leave_out(Reader& reader, Problem& problem, const std::vector<bool>& dropped);

/// Finds and loads every family's SPIR-V (each file once; a GLSL family's is already there) and
/// checks the family against the reflection of its entry point: bindings, descriptor types,
/// strides, push-constant size, specialization ids and value types.
void attach_spirv(Reader& reader, Problem& problem, const std::vector<FamilyDraft>& drafts,
                  const LoadOptions& options);

/// Checks `step` against the entry point of its module (bindings, descriptor types, strides,
/// push-constant size) and resolves its specialization entries by SpecId or name, reporting each
/// fault at its place in `draft`; true when there was none.
bool attach_module(Reader& reader, const Problem& problem, DispatchStep& step,
                   const StepDraft& draft);

/// The names of the key parameters, in file order.
std::vector<std::string> parameter_names(const Problem& problem);
/// The names of the buffers, in file order.
std::vector<std::string> buffer_names(const Problem& problem);

/// The variables candidate expressions of `family` may use: key then grid parameters, then the
/// `device.<name>` properties.
std::vector<std::string> candidate_variables(const Problem& problem, const CandidateFamily& family);

/// `what` followed by what a candidate expression may use, for the unknown-variable message
/// ("a constraint may use the key and grid parameters and let names").
inline std::string candidate_scope(std::string_view what) {
    // Appended, not `std::string(what) + "..."`: GCC 12 at -O2 without unity batches warns of
    // a memcpy out of bounds in that operator+ (a false -Warray-bounds, an error here).
    std::string scope(what);
    scope += " may use the key and grid parameters and let names";
    return scope;
}

}  // namespace spvtune::problem::detail
