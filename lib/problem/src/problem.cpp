#include <algorithm>
#include <cstdint>
#include <optional>
#include <system_error>
#include <utility>

#include <spvtune/base/regular_file.hpp>
#include <spvtune/problem/diagnostic.hpp>
#include <spvtune/problem/problem.hpp>

#include "parse/problem_parser.hpp"

namespace spvtune::problem {
namespace {

/// Far beyond any real problem file (the largest in configs/ is a few KiB): a larger one is not
/// read into memory.
constexpr std::uintmax_t largest_problem_file = std::uintmax_t{256} << 20;

void throw_if_failed(const detail::Reader& reader) {
    if (reader.error_count() != 0) {
        throw ProblemError(reader.diagnostics());
    }
}

bool is_problem_name(std::string_view name) {
    return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-' || c == '.';
    });
}

/// Runs `stage` when `json` has `field`; true when the field is there and the stage found no
/// fault, so the stages that build on it can run.
template <class Stage>
bool clean_stage(detail::Reader& reader, const detail::Json& json, const char* field,
                 Stage&& stage) {
    if (!json.contains(field)) {
        return false;
    }
    const std::size_t errors = reader.error_count();
    std::forward<Stage>(stage)();
    return reader.error_count() == errors;
}

}  // namespace

std::string to_string(ParameterType type) {
    return nlohmann::json(type).get<std::string>();
}

std::string to_string(BufferRole role) {
    return nlohmann::json(role).get<std::string>();
}

const Parameter* Problem::find_parameter(std::string_view wanted) const {
    const auto it = std::find_if(parameters.begin(), parameters.end(),
                                 [wanted](const Parameter& p) { return p.name == wanted; });
    return it == parameters.end() ? nullptr : &*it;
}

const BufferSpec* Problem::find_buffer(std::string_view wanted) const {
    const auto it = std::find_if(buffers.begin(), buffers.end(),
                                 [wanted](const BufferSpec& b) { return b.name == wanted; });
    return it == buffers.end() ? nullptr : &*it;
}

const Candidate* Problem::find_candidate(std::string_view wanted) const {
    const auto it = std::find_if(candidates.begin(), candidates.end(),
                                 [wanted](const Candidate& c) { return c.name == wanted; });
    return it == candidates.end() ? nullptr : &*it;
}

ProblemKey Problem::tuning_key(const ProblemKey& exact, tune::AutotuneLevel level) const {
    std::vector<ProblemKey::Entry> entries = exact.entries();
    for (auto& [name, value] : entries) {
        const Parameter* parameter = find_parameter(name);
        const auto* number = std::get_if<std::int64_t>(&value);
        if (parameter == nullptr || !parameter->bucket || number == nullptr || *number < 0) {
            continue;
        }
        const Bucket& bucket = *parameter->bucket;
        const std::uint64_t anchored = tune::anchor(static_cast<std::uint64_t>(*number), bucket.max,
                                                    bucket.min, bucket.base, level);
        value = static_cast<std::int64_t>(
            std::min<std::uint64_t>(anchored, static_cast<std::uint64_t>(INT64_MAX)));
    }
    return ProblemKey(std::move(entries));
}

Problem parse_problem(std::string_view text, const std::filesystem::path& file,
                      const LoadOptions& options) {
    detail::Reader reader(file);
    const auto parsed = detail::parse_json(text, reader);
    throw_if_failed(reader);
    const detail::Json& json = *parsed;
    if (!reader.object(json, "",
                       {"name", "parameters", "keys", "buffers", "candidates", "reference"},
                       {"$schema", "description", "settings", "defaults"})) {
        throw_if_failed(reader);
    }
    Problem problem;
    problem.file = file;
    if (json.contains("name")) {
        if (auto name = reader.string(json["name"], "/name")) {
            if (!is_problem_name(*name)) {
                reader.error("/name",
                             "expected a name of letters, digits, '_', '-' and '.' (it "
                             "names the cache namespace), found " +
                                 detail::describe(json["name"]));
            }
            problem.name = *name;
        }
    }
    if (json.contains("$schema")) {
        reader.string(json["$schema"], "/$schema");  // editors follow it, as a URI
    }
    if (json.contains("description")) {
        problem.description = reader.string(json["description"], "/description").value_or("");
    }
    // Every stage runs whatever failed before it, so one run shows every independent fault; a
    // stage is skipped only when a fault it depends on would turn its messages into noise.
    if (json.contains("settings")) {
        detail::parse_settings(reader, json["settings"], problem);
    }
    const bool parameters_clean = clean_stage(reader, json, "parameters", [&] {
        detail::parse_parameters(reader, json["parameters"], problem);
    });
    // Key values are checked against each parameter's type: a broken parameter has none.
    if (parameters_clean && json.contains("keys")) {
        detail::parse_keys(reader, json["keys"], problem);
    } else if (json.contains("keys")) {
        detail::check_keys_shape(reader, json["keys"]);  // its fields need no parameter
    }
    const bool buffers_clean = clean_stage(
        reader, json, "buffers", [&] { detail::parse_buffers(reader, json["buffers"], problem); });
    std::vector<detail::FamilyDraft> drafts;
    bool candidates_clean = clean_stage(reader, json, "candidates", [&] {
        detail::parse_candidates(reader, json["candidates"],
                                 json.contains("defaults") ? &json["defaults"] : nullptr, problem,
                                 drafts);
    });
    if (parameters_clean && candidates_clean) {
        const std::size_t errors = reader.error_count();
        detail::expand_candidates(reader, problem);
        candidates_clean = reader.error_count() == errors;
    } else {
        candidates_clean = false;
    }
    if (json.contains("reference")) {
        detail::parse_reference(reader, json["reference"], problem,
                                {.candidates = candidates_clean, .buffers = buffers_clean});
    }
    throw_if_failed(reader);
    detail::expand_spirv_templates(reader, problem, drafts, options);
    throw_if_failed(reader);
    detail::compile_glsl_candidates(reader, problem, drafts, options);
    throw_if_failed(reader);
    detail::attach_spirv(reader, problem, drafts, options);
    throw_if_failed(reader);
    return problem;
}

Problem load_problem(const std::filesystem::path& file, const LoadOptions& options) {
    std::error_code error;
    if (!std::filesystem::is_regular_file(file, error)) {
        throw ProblemError({{file, "",
                             std::filesystem::exists(file, error)
                                 ? "cannot read the problem file: not a regular file"
                                 : "cannot read the problem file: no such file",
                             ""}});
    }
    // An error reading is said as one (an I/O error, /proc/self/mem), never passed on to the
    // JSON parser as a short text; a file that grew huge or a FIFO swapped in since the check
    // above is refused, not read without end.
    std::optional<base::RegularFile> read;
    try {
        read = base::read_regular_file(file, largest_problem_file);
    } catch (const base::FileReadError& error) {
        using Step = base::FileReadError::Step;
        const std::string what = error.step() == Step::open   ? "cannot open the problem file: "
                                 : error.step() == Step::kind ? "cannot read the problem file: not "
                                                                "a regular file: "
                                                              : "cannot read the problem file: ";
        throw ProblemError({{file, "", what + error.detail(), ""}});
    }
    if (!read) {
        throw ProblemError({{file, "", "cannot read the problem file: no such file", ""}});
    }
    return parse_problem(read->text, file, options);
}

}  // namespace spvtune::problem
