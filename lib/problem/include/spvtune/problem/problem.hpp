#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <spvtune/problem/expression.hpp>
#include <spvtune/problem/problem_key.hpp>
#include <spvtune/tune/anchor.hpp>
#include <spvtune/tune/search_trace.hpp>
#include <spvtune/vulkan/host_data.hpp>
#include <spvtune/vulkan/spirv_module.hpp>

namespace spvtune::problem {

namespace detail {
class PerKeyGlsl;
}

// The in-memory form of a problem description (docs/problem-format.md). A Problem that exists
// has passed every check that does not need a device: structure, types, names, expression
// syntax and variables, grid expansion, and the SPIR-V reflection of every candidate. What
// depends on a key (counts, dispatch sizes, key constraints, and the module of a GLSL candidate
// whose defines use key parameters) is evaluated by resolve.hpp.
//
// Every element keeps the JSON pointer it came from, so later per-key messages can name it.

enum class ParameterType { integer, floating, string };

// Problem-file spellings.
NLOHMANN_JSON_SERIALIZE_ENUM(ParameterType, {
                                                {ParameterType::integer, "int"},
                                                {ParameterType::floating, "float"},
                                                {ParameterType::string, "string"},
                                            })

/// "int", "float" or "string", as the file spells them.
std::string to_string(ParameterType type);

/// Bucketing of an integer parameter into the tuning key (tune::anchor).
struct Bucket {
    std::uint64_t base = 2;
    std::optional<std::uint64_t> min;
    std::optional<std::uint64_t> max;
};

struct Parameter {
    std::string name;
    ParameterType type = ParameterType::integer;
    std::optional<Bucket> bucket;  ///< integers only
};

/// A key to tune and where the file gives it (`/keys/list/2` or `/keys/grid`).
struct KeyEntry {
    ProblemKey key;
    std::string pointer;
};

/// `scratch`: a candidate's working memory between its steps (partial sums), reset to its
/// initial contents before each run and never compared.
enum class BufferRole { input, output, inout, scratch };

// Problem-file spellings.
NLOHMANN_JSON_SERIALIZE_ENUM(BufferRole, {
                                             {BufferRole::input, "input"},
                                             {BufferRole::output, "output"},
                                             {BufferRole::inout, "inout"},
                                             {BufferRole::scratch, "scratch"},
                                         })

/// As the file spells it.
std::string to_string(BufferRole role);

/// Whether a candidate's writes to the buffer are compared with the reference's.
inline bool is_checked(BufferRole role) noexcept {
    return role == BufferRole::output || role == BufferRole::inout;
}

struct BufferSpec {
    std::string name;
    vulkan::ElementType type = vulkan::ElementType::f32;
    Expression count = Expression::parse("1");  ///< of the key parameters only
    /// Elements allocated past `count` and zero-filled, for kernels that read past the logical
    /// size by design (a tile running over the last row); never checked. Of the key parameters.
    std::optional<Expression> padding;
    vulkan::Fill init;
    BufferRole role = BufferRole::input;
    std::string pointer;
};

/// A candidate (grid) parameter with its values, in the order the file writes them.
struct GridAxis {
    std::string name;
    std::vector<std::int64_t> values;
};

/// An expression and the JSON pointer it was read from.
struct LocatedExpression {
    Expression expression = Expression::parse("0");
    std::string pointer;
};

struct Constraint {
    LocatedExpression condition;
    /// False: it uses only grid parameters and was applied at expansion. True: it uses a key
    /// parameter or a device property, and is evaluated per key.
    bool uses_key = false;
};

/// A specialization constant value, resolved to the SpecId the shader declares.
struct SpecializationEntry {
    std::uint32_t id = 0;
    /// The declared type and default, from reflection: values are converted to this type.
    vulkan::SpecializationValue declared;
    LocatedExpression value;
};

/// One member of the push-constant block, laid out with scalar alignment.
struct PushConstant {
    vulkan::ElementType type = vulkan::ElementType::u32;  ///< f32 i32 u32 f64 i64 u64
    std::uint32_t offset = 0;
    LocatedExpression value;
};

struct Binding {
    std::uint32_t set = 0;
    std::uint32_t binding = 0;
    std::size_t buffer = 0;  ///< index into Problem::buffers
    std::string pointer;
};

/// One dispatch of a candidate (repeated `repeat` times): a SPIR-V entry point with its inputs.
struct DispatchStep {
    /// "/candidates/3/steps/1"; the family's pointer for a candidate of one dispatch.
    std::string pointer;
    std::filesystem::path spirv;  ///< resolved path of the file that was loaded (or the GLSL)
    /// Shared by steps using one file; null for a step compiled per key (per_key_glsl).
    std::shared_ptr<const vulkan::SpirvModule> module;
    /// Set for a GLSL step whose candidate has a define of a key parameter: its module is
    /// compiled for each key's define values when the key is resolved (resolve_candidate), so
    /// `module` is null and `specialization` empty here.
    std::shared_ptr<const detail::PerKeyGlsl> per_key_glsl;
    std::string entry;
    std::vector<SpecializationEntry> specialization;  ///< sorted by id
    std::array<LocatedExpression, 3> workgroups;
    std::vector<PushConstant> push_constants;
    std::uint32_t push_constant_size = 0;
    std::vector<Binding> bindings;  ///< sorted by (set, binding)
    /// How many times the step is dispatched per run (an int >= 0 per key; default 1).
    LocatedExpression repeat{Expression::parse("1"), ""};
    /// The variable that counts the repetitions (0, 1, ...) in the step's workgroups and push
    /// constants; empty when the step names none.
    std::string iteration;

    /// The reflected entry point (the module outlives the step); needs a module.
    const vulkan::ComputeEntryPoint& entry_point() const { return module->entry_point(entry); }
};

/// A candidate as written: one or more dispatch steps, possibly a grid of variants.
struct CandidateFamily {
    std::string name;
    /// The name of the candidate's variant this family is, or empty; its candidates are named
    /// `name[variant]` or `name[variant,P=v]`.
    std::string variant;
    std::string pointer;  ///< "/candidates/3", or "/candidates/3/variants/1"
    std::vector<GridAxis> grid;
    /// Named integers a "let" gives (a shared variant's tile sizes, say): in scope as grid
    /// parameters of one value would be, appended to each candidate's point, never in its name.
    std::vector<std::pair<std::string, std::int64_t>> let;
    std::vector<Constraint> constraints;
    /// Run in this order in one command buffer, each after the previous one's writes; at least
    /// one. A candidate written without "steps" is one step.
    std::vector<DispatchStep> steps;
    LocatedExpression priority;
    /// Device capabilities the candidate needs (vulkan::known_capabilities() names); on a device
    /// without one, the candidate is skipped with that reason.
    std::vector<std::string> required_capabilities;
    /// `"reference_only": true`: its candidates only check the others (they must be listed in
    /// `reference`): never measured and never the winner (tune::Candidate::reference_only).
    bool reference_only = false;
};

/// One point of a family's grid that its grid-only constraints allow.
struct Candidate {
    /// `family[P=v,Q=w]` (`family[variant,P=v]` for a variant), or the family's name when it
    /// has neither grid nor variant.
    std::string name;
    std::size_t family = 0;  ///< index into Problem::families
    /// Grid parameter values, in the family's grid order, then the family's `let` values.
    std::vector<std::pair<std::string, std::int64_t>> point;
};

/// How a checked buffer's elements are compared: exactly, or |got - want| <= atol + rtol*|want|.
/// NaN never matches.
struct Comparison {
    std::size_t buffer = 0;  ///< index into Problem::buffers
    bool exact = false;
    double atol = 0;
    double rtol = 0;
    /// `"range": [begin, end]`: only elements begin..end-1 are compared (a reduction that leaves
    /// its result in element 0 of an inout buffer); expressions of the key parameters, resolved
    /// per key into ResolvedBuffer::checked. Empty: the whole buffer.
    std::optional<std::array<LocatedExpression, 2>> range;
};

struct Reference {
    /// Indices into Problem::candidates, most trusted first, at least one: for each key, the
    /// first that can run it is its truth (one reference rarely runs every size).
    std::vector<std::size_t> candidates;
    std::vector<Comparison> compare;  ///< one per checked buffer, in buffer order
};

enum class SamplingMode { adaptive, fixed };

// Problem-file spellings.
NLOHMANN_JSON_SERIALIZE_ENUM(SamplingMode, {
                                               {SamplingMode::adaptive, "adaptive"},
                                               {SamplingMode::fixed, "fixed"},
                                           })

/// The most warm-up runs or samples a file or the command line may ask for.
inline constexpr std::uint32_t max_sample_count = 1'000'000;

/// Measurement settings from the file; empty fields leave the tool's defaults.
struct Settings {
    std::optional<SamplingMode> mode;
    std::optional<std::uint32_t> warmup;
    std::optional<std::uint32_t> samples;
    std::optional<std::uint32_t> min_samples;
    /// Samples a candidate takes in each round of the race, in one submission
    /// (tune::SamplingSettings::samples_per_submission).
    std::optional<std::uint32_t> samples_per_submission;
    std::optional<double> min_sample_ms;
    std::optional<double> time_budget_s;
    std::optional<double> candidate_budget_s;
    /// Adaptive: leaders confidently closer than this percentage of the leader's median are
    /// practically equivalent (tune::SamplingSettings::indifference, as a percentage).
    std::optional<double> indifference_percent;
    /// The longest one kernel may run in the worker before its candidate counts as hung.
    std::optional<double> kernel_timeout_s;
    /// Which candidates of a key are measured (tune::SearchSettings): the strategy, the seconds
    /// a key's search may propose new points, the most points measured per key, the seed, and
    /// the fruitless restarts (`genetic`: generations) in a row after which the search ends.
    std::optional<tune::SearchStrategy> search;
    std::optional<double> search_budget_s;
    std::optional<std::uint32_t> max_candidates;
    std::optional<std::uint64_t> seed;
    std::optional<std::uint32_t> patience;
};

/// A candidate the file describes that could not be loaded: a grid point whose templated `spirv`
/// path names a file that does not exist, or whose GLSL does not compile with its defines. The
/// other points go on without it.
struct UnavailableCandidate {
    std::string name;
    std::string reason;
};

struct Problem {
    std::filesystem::path file;
    std::string name;  ///< the tuner's name: the cache namespace
    std::string description;
    std::vector<Parameter> parameters;  ///< in file order
    std::vector<KeyEntry> keys;         ///< list then grid, without duplicates
    std::vector<BufferSpec> buffers;    ///< in file order
    std::vector<CandidateFamily> families;
    std::vector<Candidate> candidates;              ///< every family's points, in file order
    std::vector<UnavailableCandidate> unavailable;  ///< points left out, with why
    Reference reference;
    Settings settings;

    const Parameter* find_parameter(std::string_view name) const;
    const BufferSpec* find_buffer(std::string_view name) const;
    const Candidate* find_candidate(std::string_view name) const;

    /// The key the tuner stores results under: `exact` with each bucketed parameter replaced by
    /// its bucket (tune::anchor at `level`). Nearby sizes share one tuning key; buffers and
    /// dispatch still use the exact key.
    ProblemKey tuning_key(const ProblemKey& exact,
                          tune::AutotuneLevel level = tune::AutotuneLevel::balanced) const;
};

struct LoadOptions {
    /// Searched for a candidate's `spirv` when it is not next to the problem file, before
    /// SPVTUNE_KERNEL_PATH and the kernels built with spvtune (see kernel_search.hpp).
    std::vector<std::filesystem::path> kernel_dirs;
    /// Where compiled GLSL candidates are kept between runs (GlslCache); none: compile each time.
    std::optional<std::filesystem::path> glsl_cache_dir;
};

/// Reads, parses and validates the problem description in `file`, loading and reflecting every
/// SPIR-V module it names. Throws ProblemError with every diagnostic found: as many as one pass
/// can find (a later stage, such as reflection, runs only when the earlier ones found nothing).
Problem load_problem(const std::filesystem::path& file, const LoadOptions& options = {});

/// The same from text; `file` names it in messages and anchors relative `spirv` paths.
Problem parse_problem(std::string_view text, const std::filesystem::path& file,
                      const LoadOptions& options = {});

}  // namespace spvtune::problem
