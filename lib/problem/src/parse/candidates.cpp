#include <algorithm>
#include <cctype>
#include <set>

#include <spvtune/vulkan/capabilities.hpp>

#include "problem_parser.hpp"

namespace spvtune::problem::detail {
namespace {

// Enough for any real tuning grid; more is almost certainly a typo in a value list.
constexpr std::size_t max_grid_points = 65536;

bool is_candidate_name(std::string_view name) {
    return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-' || c == '.';
    });
}

bool all_digits(std::string_view text) {
    return !text.empty() && text.size() <= 10 && std::all_of(text.begin(), text.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) != 0;
    });
}

void parse_grid(Reader& reader, const Json& json, const std::string& pointer,
                const Problem& problem, CandidateFamily& family) {
    if (!reader.is_type(json, pointer, json.is_object(), "an object (parameter -> values)")) {
        return;
    }
    std::size_t points = 1;
    for (const auto& [name, values] : json.items()) {
        const std::string at = child(pointer, name);
        if (!reader.variable_name(name, at, "a grid parameter name")) {
            continue;
        }
        if (problem.find_parameter(name) != nullptr) {
            reader.error(at, "grid parameter '" + name +
                                 "' has the name of a key parameter; expected a distinct name");
            continue;
        }
        if (!reader.is_type(values, at, values.is_array() && !values.empty(),
                            "a non-empty array of integers")) {
            continue;
        }
        GridAxis axis{name, {}};
        for (std::size_t i = 0; i < values.size(); ++i) {
            if (auto value = reader.integer(values[i], child(at, i))) {
                if (std::find(axis.values.begin(), axis.values.end(), *value) !=
                    axis.values.end()) {
                    reader.error(child(at, i), "value " + std::to_string(*value) +
                                                   " appears twice; expected distinct values");
                }
                axis.values.push_back(*value);
            }
        }
        points *= std::max<std::size_t>(axis.values.size(), 1);
        if (points > max_grid_points) {
            reader.error(pointer, "the grid has more than " + std::to_string(max_grid_points) +
                                      " points; expected fewer");
            return;
        }
        family.grid.push_back(std::move(axis));
    }
}

void parse_constraints(Reader& reader, const Json& json, const std::string& pointer,
                       const std::vector<std::string>& variables, CandidateFamily& family) {
    if (!reader.is_type(json, pointer, json.is_array(), "an array of expression strings")) {
        return;
    }
    for (std::size_t i = 0; i < json.size(); ++i) {
        const std::string at = child(pointer, i);
        if (!reader.is_type(json[i], at, json[i].is_string(), "an expression string")) {
            continue;
        }
        if (auto expression = reader.expression(
                json[i], at, variables, "a constraint may use the key and grid parameters")) {
            family.constraints.push_back({{std::move(*expression), at}, false});
        }
    }
}

void parse_specialization(Reader& reader, const Json& json, const std::string& pointer,
                          const std::vector<std::string>& variables, FamilyDraft& draft) {
    if (!reader.is_type(json, pointer, json.is_object(),
                        "an object (SpecId or constant name -> value)")) {
        return;
    }
    for (const auto& [label, value] : json.items()) {
        const std::string at = child(pointer, label);
        if (!all_digits(label) && !reader.identifier(label, at, "a specialization constant")) {
            continue;
        }
        if (auto expression =
                reader.expression(value, at, variables,
                                  "a specialization value may use the key and grid parameters")) {
            draft.specialization.push_back({label, {std::move(*expression), at}});
        }
    }
}

void parse_workgroups(Reader& reader, const Json& json, const std::string& pointer,
                      const std::vector<std::string>& variables, CandidateFamily& family) {
    if (!reader.is_type(json, pointer, json.is_array() && json.size() == 3,
                        "an array of 3 workgroup counts (x, y, z)")) {
        return;
    }
    for (std::size_t i = 0; i < 3; ++i) {
        const std::string at = child(pointer, i);
        if (auto expression = reader.expression(
                json[i], at, variables, "a workgroup count may use the key and grid parameters")) {
            family.workgroups[i] = {std::move(*expression), at};
        }
    }
}

void parse_push_constants(Reader& reader, const Json& json, const std::string& pointer,
                          const std::vector<std::string>& variables, CandidateFamily& family) {
    if (!reader.is_type(json, pointer, json.is_array(), "an array of {\"type\", \"value\"}")) {
        return;
    }
    std::uint32_t offset = 0;
    for (std::size_t i = 0; i < json.size(); ++i) {
        const std::string at = child(pointer, i);
        if (!reader.object(json[i], at, {"type", "value"}, {}) || !json[i].contains("type") ||
            !json[i].contains("value")) {
            continue;
        }
        PushConstant constant;
        const auto type = reader.string(json[i]["type"], child(at, "type"));
        if (!type) {
            continue;
        }
        const auto parsed = vulkan::parse_element_type(*type);
        using vulkan::ElementType;
        if (!parsed || !(*parsed == ElementType::f32 || *parsed == ElementType::f64 ||
                         *parsed == ElementType::i32 || *parsed == ElementType::u32 ||
                         *parsed == ElementType::i64 || *parsed == ElementType::u64)) {
            reader.error(child(at, "type"),
                         "expected a push-constant type (f32, f64, i32, u32, "
                         "i64, u64), found " +
                             describe(json[i]["type"]));
            continue;
        }
        constant.type = *parsed;
        // Scalar layout: each value aligned to its own size.
        const auto size = static_cast<std::uint32_t>(vulkan::element_size(constant.type));
        offset = (offset + size - 1) / size * size;
        constant.offset = offset;
        offset += size;
        if (auto expression =
                reader.expression(json[i]["value"], child(at, "value"), variables,
                                  "a push constant may use the key and grid parameters")) {
            constant.value = {std::move(*expression), child(at, "value")};
            family.push_constants.push_back(std::move(constant));
        }
    }
    family.push_constant_size = offset;
}

std::optional<std::pair<std::uint32_t, std::uint32_t>> parse_binding_slot(std::string_view text) {
    const auto dot = text.find('.');
    const std::string_view set = dot == std::string_view::npos ? "0" : text.substr(0, dot);
    const std::string_view binding = dot == std::string_view::npos ? text : text.substr(dot + 1);
    if (!all_digits(set) || !all_digits(binding)) {
        return std::nullopt;
    }
    const auto set_value = std::stoull(std::string(set));
    const auto binding_value = std::stoull(std::string(binding));
    if (set_value > UINT32_MAX || binding_value > UINT32_MAX) {
        return std::nullopt;
    }
    return std::pair{static_cast<std::uint32_t>(set_value),
                     static_cast<std::uint32_t>(binding_value)};
}

void parse_bindings(Reader& reader, const Json& json, const std::string& pointer,
                    const Problem& problem, CandidateFamily& family) {
    if (!reader.is_type(json, pointer, json.is_object(),
                        "an object (\"binding\" or \"set.binding\" -> buffer name)")) {
        return;
    }
    const std::vector<std::string> buffers = buffer_names(problem);
    for (const auto& [slot_text, value] : json.items()) {
        const std::string at = child(pointer, slot_text);
        const auto slot = parse_binding_slot(slot_text);
        if (!slot) {
            reader.error(at,
                         "expected a binding number (\"1\") or \"set.binding\" (\"0.1\"), found '" +
                             slot_text + "'");
            continue;
        }
        const auto name = reader.string(value, at);
        if (!name) {
            continue;
        }
        const auto buffer = std::find(buffers.begin(), buffers.end(), *name);
        if (buffer == buffers.end()) {
            reader.error(at,
                         unknown("buffer", *name, buffers) + "; the buffers are: " + join(buffers));
            continue;
        }
        const bool repeated = std::any_of(
            family.bindings.begin(), family.bindings.end(), [&slot](const Binding& other) {
                return other.set == slot->first && other.binding == slot->second;
            });
        if (repeated) {
            reader.error(at, "set " + std::to_string(slot->first) + " binding " +
                                 std::to_string(slot->second) + " is bound twice");
            continue;
        }
        family.bindings.push_back(
            {slot->first, slot->second, static_cast<std::size_t>(buffer - buffers.begin()), at});
    }
    std::sort(family.bindings.begin(), family.bindings.end(),
              [](const Binding& a, const Binding& b) {
                  return std::pair(a.set, a.binding) < std::pair(b.set, b.binding);
              });
}

}  // namespace

std::vector<std::string> candidate_variables(const Problem& problem,
                                             const CandidateFamily& family) {
    std::vector<std::string> names = parameter_names(problem);
    for (const GridAxis& axis : family.grid) {
        names.push_back(axis.name);
    }
    return names;
}

/// `"requires": ["subgroup_arithmetic"]`: device capabilities the candidate cannot run without.
void parse_requires(Reader& reader, const Json& json, const std::string& pointer,
                    CandidateFamily& family) {
    if (!reader.is_type(json, pointer, json.is_array(), "an array of capability names")) {
        return;
    }
    for (std::size_t i = 0; i < json.size(); ++i) {
        const auto name = reader.string(json[i], child(pointer, i));
        if (!name) {
            continue;
        }
        if (!vulkan::is_known_capability(*name)) {
            reader.error(child(pointer, i),
                         unknown("capability", *name, vulkan::known_capabilities()) +
                             "; expected one of " + join(vulkan::known_capabilities()));
            continue;
        }
        family.required_capabilities.push_back(*name);
    }
}

void parse_candidates(Reader& reader, const Json& json, Problem& problem,
                      std::vector<FamilyDraft>& drafts) {
    const std::string pointer = "/candidates";
    if (!reader.is_type(json, pointer, json.is_array() && !json.empty(),
                        "a non-empty array of candidates")) {
        return;
    }
    std::set<std::string> names;
    for (std::size_t i = 0; i < json.size(); ++i) {
        const std::string at = child(pointer, i);
        const Json& spec = json[i];
        if (!reader.object(spec, at, {"name", "spirv", "workgroups"},
                           {"entry", "grid", "constraints", "specialization", "push_constants",
                            "bindings", "priority", "requires"})) {
            continue;
        }
        CandidateFamily family;
        FamilyDraft draft;
        family.pointer = at;
        family.entry = "main";
        if (spec.contains("name")) {
            if (auto name = reader.string(spec["name"], child(at, "name"))) {
                if (!is_candidate_name(*name)) {
                    reader.error(child(at, "name"),
                                 "expected a name of letters, digits, '_', '-' "
                                 "and '.', found " +
                                     describe(spec["name"]));
                } else if (!names.insert(*name).second) {
                    reader.error(child(at, "name"), "candidate name '" + *name +
                                                        "' is used twice; expected unique names");
                }
                family.name = *name;
            }
        }
        if (spec.contains("spirv")) {
            draft.spirv = reader.string(spec["spirv"], child(at, "spirv")).value_or("");
        }
        if (spec.contains("entry")) {
            family.entry = reader.string(spec["entry"], child(at, "entry")).value_or("main");
        }
        if (spec.contains("grid")) {
            parse_grid(reader, spec["grid"], child(at, "grid"), problem, family);
        }
        const auto variables = candidate_variables(problem, family);
        if (spec.contains("constraints")) {
            parse_constraints(reader, spec["constraints"], child(at, "constraints"), variables,
                              family);
        }
        if (spec.contains("specialization")) {
            parse_specialization(reader, spec["specialization"], child(at, "specialization"),
                                 variables, draft);
        }
        if (spec.contains("workgroups")) {
            parse_workgroups(reader, spec["workgroups"], child(at, "workgroups"), variables,
                             family);
        }
        if (spec.contains("push_constants")) {
            parse_push_constants(reader, spec["push_constants"], child(at, "push_constants"),
                                 variables, family);
        }
        if (spec.contains("bindings")) {
            parse_bindings(reader, spec["bindings"], child(at, "bindings"), problem, family);
        }
        family.priority.pointer = child(at, "priority");
        if (spec.contains("priority")) {
            if (auto priority =
                    reader.expression(spec["priority"], child(at, "priority"), variables,
                                      "a priority may use the key and grid parameters")) {
                family.priority.expression = std::move(*priority);
            }
        }
        if (spec.contains("requires")) {
            parse_requires(reader, spec["requires"], child(at, "requires"), family);
        }
        problem.families.push_back(std::move(family));
        drafts.push_back(std::move(draft));
    }
}

}  // namespace spvtune::problem::detail
