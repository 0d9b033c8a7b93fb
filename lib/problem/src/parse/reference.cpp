#include <algorithm>
#include <set>

#include "problem_parser.hpp"

namespace spvtune::problem::detail {
namespace {

/// The index of the candidate `json` names, or nothing (reported) when it names none.
std::optional<std::size_t> resolve_candidate_name(Reader& reader, const Json& json,
                                                  const std::string& pointer,
                                                  const Problem& problem) {
    const auto name = reader.string(json, pointer);
    if (!name) {
        return std::nullopt;
    }
    std::vector<std::string> names;
    for (std::size_t i = 0; i < problem.candidates.size(); ++i) {
        if (problem.candidates[i].name == *name) {
            return i;
        }
        names.push_back(problem.candidates[i].name);
    }
    // A family's plain name will do when it stands for exactly one candidate.
    std::vector<std::size_t> members;
    for (std::size_t i = 0; i < problem.candidates.size(); ++i) {
        if (problem.families[problem.candidates[i].family].name == *name) {
            members.push_back(i);
        }
    }
    if (members.size() == 1) {
        return members.front();
    }
    if (members.size() > 1) {
        reader.error(pointer, "candidate family '" + *name + "' has " +
                                  std::to_string(members.size()) +
                                  " candidates; expected one of them, e.g. '" +
                                  problem.candidates[members.front()].name + "'");
        return std::nullopt;
    }
    reader.error(pointer,
                 unknown("candidate", *name, names) + "; the candidates are: " + join_some(names));
    return std::nullopt;
}

/// `"candidate"`: one name, or a non-empty list of distinct names, most trusted first.
void resolve_candidates(Reader& reader, const Json& json, const std::string& pointer,
                        Problem& problem) {
    if (!json.is_array()) {
        if (auto index = resolve_candidate_name(reader, json, pointer, problem)) {
            problem.reference.candidates.push_back(*index);
        }
        return;
    }
    if (json.empty()) {
        reader.error(pointer, "expected a candidate name or a non-empty list of them, found []");
        return;
    }
    for (std::size_t i = 0; i < json.size(); ++i) {
        const std::string at = child(pointer, i);
        const auto index = resolve_candidate_name(reader, json[i], at, problem);
        if (!index) {
            continue;
        }
        auto& listed = problem.reference.candidates;
        if (std::find(listed.begin(), listed.end(), *index) != listed.end()) {
            reader.error(at, "candidate '" + problem.candidates[*index].name +
                                 "' is listed twice; expected each reference once");
            continue;
        }
        listed.push_back(*index);
    }
}

/// A reference-only candidate that is no reference would never run; a file whose candidates
/// are all reference-only has none that may win.
void check_reference_only(Reader& reader, const Problem& problem) {
    const auto& listed = problem.reference.candidates;
    bool any_may_win = false;
    std::set<std::size_t> reported;
    for (std::size_t i = 0; i < problem.candidates.size(); ++i) {
        const std::size_t family = problem.candidates[i].family;
        if (!problem.families[family].reference_only) {
            any_may_win = true;
        } else if (std::find(listed.begin(), listed.end(), i) == listed.end() &&
                   reported.insert(family).second) {
            reader.error(child(problem.families[family].pointer, "reference_only"),
                         "candidate '" + problem.candidates[i].name +
                             "' is reference only but not listed in /reference/candidate; "
                             "expected it there (else it would never run)");
        }
    }
    if (!any_may_win && !problem.candidates.empty()) {
        reader.error("/candidates",
                     "every candidate is reference only; expected at least one "
                     "that may be the winner");
    }
}

/// `"range": [begin, end]`: the elements compared, two expressions of the key parameters.
std::optional<std::array<LocatedExpression, 2>> parse_range(Reader& reader, const Json& json,
                                                            const std::string& pointer,
                                                            const Problem& problem) {
    if (!reader.is_type(json, pointer, json.is_array() && json.size() == 2,
                        "an array [begin, end] of the elements compared (end excluded)")) {
        return std::nullopt;
    }
    std::array<LocatedExpression, 2> range;
    for (std::size_t i = 0; i < 2; ++i) {
        const std::string at = child(pointer, i);
        auto expression = reader.expression(json[i], at, parameter_names(problem),
                                            "a range may use the key parameters");
        if (!expression) {
            return std::nullopt;
        }
        range[i] = {std::move(*expression), at};
    }
    return range;
}

std::optional<Comparison> parse_comparison(Reader& reader, const Json& json,
                                           const std::string& pointer, std::size_t buffer,
                                           const BufferSpec& spec, const Problem& problem) {
    if (!reader.object(json, pointer, {}, {"exact", "atol", "rtol", "range"})) {
        return std::nullopt;
    }
    const std::size_t errors = reader.error_count();
    Comparison comparison{buffer, false, 0, 0, std::nullopt};
    if (json.contains("range")) {
        comparison.range = parse_range(reader, json["range"], child(pointer, "range"), problem);
    }
    if (json.contains("exact")) {
        comparison.exact = reader.boolean(json["exact"], child(pointer, "exact")).value_or(false);
    }
    if (json.contains("atol")) {
        comparison.atol = reader.number(json["atol"], child(pointer, "atol"), 0).value_or(0);
    }
    if (json.contains("rtol")) {
        comparison.rtol = reader.number(json["rtol"], child(pointer, "rtol"), 0).value_or(0);
    }
    const bool tolerance = json.contains("atol") || json.contains("rtol");
    if (comparison.exact && tolerance) {
        reader.error(pointer, "expected either \"exact\": true or atol/rtol, found both");
    } else if (!comparison.exact && !tolerance) {
        if (vulkan::is_floating(spec.type)) {
            reader.error(pointer, "buffer '" + spec.name + "' holds " +
                                      std::string(vulkan::to_string(spec.type)) +
                                      "; expected \"atol\" and/or \"rtol\" (or \"exact\": true)");
        } else {
            comparison.exact = true;  // integers compare exactly unless told otherwise
        }
    }
    return reader.error_count() == errors ? std::optional(comparison) : std::nullopt;
}

void parse_compare(Reader& reader, const Json& json, const std::string& pointer, Problem& problem) {
    if (!reader.is_type(json, pointer, json.is_object(), "an object (buffer -> comparison)")) {
        return;
    }
    std::vector<std::string> checked;
    for (const BufferSpec& buffer : problem.buffers) {
        if (is_checked(buffer.role)) {
            checked.push_back(buffer.name);
        }
    }
    for (const auto& [name, spec] : json.items()) {
        const std::string at = child(pointer, name);
        const BufferSpec* buffer = problem.find_buffer(name);
        if (buffer == nullptr) {
            reader.error(at, unknown("buffer", name, buffer_names(problem)) +
                                 "; the checked buffers are: " + join(checked));
            continue;
        }
        if (!is_checked(buffer->role)) {
            const std::string what =
                buffer->role == BufferRole::scratch
                    ? "is scratch, a candidate's own working memory, which is never compared"
                    : "is an input, which candidates do not write";
            reader.error(at, "buffer '" + name + "' " + what +
                                 "; expected a comparison only for output and inout buffers (" +
                                 join(checked) + ")");
            continue;
        }
        const auto index = static_cast<std::size_t>(buffer - problem.buffers.data());
        if (auto comparison = parse_comparison(reader, spec, at, index, *buffer, problem)) {
            problem.reference.compare.push_back(*comparison);
        }
    }
    for (const std::string& name : checked) {
        if (!json.contains(name)) {
            reader.error(pointer, "missing a comparison for buffer '" + name + "' (role " +
                                      std::string(to_string(problem.find_buffer(name)->role)) +
                                      "); every output and inout buffer is checked");
        }
    }
    std::sort(problem.reference.compare.begin(), problem.reference.compare.end(),
              [](const Comparison& a, const Comparison& b) { return a.buffer < b.buffer; });
}

}  // namespace

void parse_reference(Reader& reader, const Json& json, Problem& problem, CleanStages clean) {
    const std::string pointer = "/reference";
    if (!reader.object(json, pointer, {"candidate", "compare"}, {})) {
        return;
    }
    if (clean.candidates && json.contains("candidate")) {
        resolve_candidates(reader, json["candidate"], child(pointer, "candidate"), problem);
        check_reference_only(reader, problem);
    }
    if (clean.buffers && json.contains("compare")) {
        parse_compare(reader, json["compare"], child(pointer, "compare"), problem);
    }
}

}  // namespace spvtune::problem::detail
