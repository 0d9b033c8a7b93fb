#include <algorithm>
#include <cctype>
#include <set>

#include <spvtune/problem/device_properties.hpp>
#include <spvtune/vulkan/capabilities.hpp>

#include "candidate_fields.hpp"
#include "candidate_layers.hpp"
#include "problem_parser.hpp"

namespace spvtune::problem::detail {
namespace {

// Enough for any real tuning grid; more is almost certainly a typo in a value list.
constexpr std::size_t max_grid_points = 65536;

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

/// `"let": {"TM": 4, "TN": 8}`: named integers in the candidate's scope, as a grid parameter of
/// one value would be. They let variants that a second candidate shares (`"variants": "tiled"`)
/// carry values each candidate uses in expressions of its own, without naming its points.
void parse_let(Reader& reader, const Json& json, const std::string& pointer, const Problem& problem,
               CandidateFamily& family) {
    if (!reader.is_type(json, pointer, json.is_object(), "an object (name -> integer)")) {
        return;
    }
    for (const auto& item : json.items()) {
        const std::string& name = item.key();
        const Json& value = item.value();
        const std::string at = child(pointer, name);
        if (!reader.variable_name(name, at, "a let name")) {
            continue;
        }
        const bool grid = std::any_of(family.grid.begin(), family.grid.end(),
                                      [&name](const GridAxis& axis) { return axis.name == name; });
        if (problem.find_parameter(name) != nullptr || grid) {
            reader.error(at, "let name '" + name + "' has the name of a " +
                                 (grid ? "grid" : "key") + " parameter; expected a distinct name");
            continue;
        }
        // A value that is not an integer is reported here; its name stays declared, so that
        // every expression using it is not reported too.
        family.let.emplace_back(name, reader.integer(value, at).value_or(0));
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
        if (auto expression =
                reader.expression(json[i], at, variables, candidate_scope("a constraint"))) {
            family.constraints.push_back({{std::move(*expression), at}, false});
        }
    }
}

void parse_specialization(Reader& reader, const Json& json, const std::string& pointer,
                          const std::vector<std::string>& variables,
                          const std::string& iteration_note, StepDraft& draft) {
    if (!reader.is_type(json, pointer, json.is_object(),
                        "an object (SpecId or constant name -> value)")) {
        return;
    }
    for (const auto& [label, value] : json.items()) {
        const std::string at = child(pointer, label);
        if (!all_digits(label) && !reader.identifier(label, at, "a specialization constant")) {
            continue;
        }
        if (auto expression = reader.expression(
                value, at, variables, candidate_scope("a specialization value") + iteration_note)) {
            draft.specialization.push_back({label, {std::move(*expression), at}});
        }
    }
}

/// What a repeated step's expressions may use beyond the key and grid parameters.
std::string iteration_note(const DispatchStep& step) {
    return step.iteration.empty() ? std::string()
                                  : " and the iteration variable '" + step.iteration + "'";
}

void parse_workgroups(Reader& reader, const Json& json, const std::string& pointer,
                      const std::vector<std::string>& variables, DispatchStep& step) {
    if (!reader.is_type(json, pointer, json.is_array() && json.size() == 3,
                        "an array of 3 workgroup counts (x, y, z)")) {
        return;
    }
    for (std::size_t i = 0; i < 3; ++i) {
        const std::string at = child(pointer, i);
        if (auto expression =
                reader.expression(json[i], at, variables,
                                  candidate_scope("a workgroup count") + iteration_note(step))) {
            step.workgroups[i] = {std::move(*expression), at};
        }
    }
}

void parse_push_constants(Reader& reader, const Json& json, const std::string& pointer,
                          const std::vector<std::string>& variables, DispatchStep& step) {
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
                                  candidate_scope("a push constant") + iteration_note(step))) {
            constant.value = {std::move(*expression), child(at, "value")};
            step.push_constants.push_back(std::move(constant));
        }
    }
    step.push_constant_size = offset;
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
                    const Problem& problem, DispatchStep& step) {
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
        const bool repeated =
            std::any_of(step.bindings.begin(), step.bindings.end(), [&slot](const Binding& other) {
                return other.set == slot->first && other.binding == slot->second;
            });
        if (repeated) {
            reader.error(at, "set " + std::to_string(slot->first) + " binding " +
                                 std::to_string(slot->second) + " is bound twice");
            continue;
        }
        step.bindings.push_back(
            {slot->first, slot->second, static_cast<std::size_t>(buffer - buffers.begin()), at});
    }
    std::sort(step.bindings.begin(), step.bindings.end(), [](const Binding& a, const Binding& b) {
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
    for (const auto& [name, value] : family.let) {
        names.push_back(name);
    }
    for (const std::string_view device : device_variable_names()) {
        names.emplace_back(device);
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

namespace {

/// `"iteration": "pass"`: a variable name distinct from the key and grid parameters.
void parse_iteration(Reader& reader, const Json& json, const std::string& pointer,
                     const std::vector<std::string>& variables, DispatchStep& step) {
    const auto name = reader.string(json, pointer);
    if (!name || !reader.variable_name(*name, pointer, "an iteration variable name")) {
        return;
    }
    if (std::find(variables.begin(), variables.end(), *name) != variables.end()) {
        reader.error(pointer, "iteration variable '" + *name +
                                  "' has the name of a key or grid parameter; expected a "
                                  "distinct name");
        return;
    }
    step.iteration = *name;
}

/// One dispatch step from its fields (`values`, each written at `pointers[field]`).
void parse_step(Reader& reader, const Json& values,
                const std::map<std::string, std::string, std::less<>>& pointers,
                const std::string& pointer, const Problem& problem, const CandidateFamily& family,
                DispatchStep& step, StepDraft& draft) {
    const auto at = [&pointers](std::string_view field) { return pointers.find(field)->second; };
    step.pointer = pointer;
    draft.pointer = pointer;
    draft.fields = pointers;
    step.entry = "main";
    if (values.contains("spirv")) {
        draft.spirv = reader.path(values["spirv"], at("spirv")).value_or("");
    }
    if (values.contains("entry")) {
        step.entry = reader.string(values["entry"], at("entry")).value_or("main");
    }
    const auto variables = candidate_variables(problem, family);
    if (values.contains("iteration")) {
        parse_iteration(reader, values["iteration"], at("iteration"), variables, step);
    }
    auto with_iteration = variables;
    if (!step.iteration.empty()) {
        with_iteration.push_back(step.iteration);
    }
    if (values.contains("specialization")) {
        parse_specialization(reader, values["specialization"], at("specialization"), with_iteration,
                             iteration_note(step), draft);
    }
    step.repeat.pointer = child(pointer, "repeat");
    if (values.contains("repeat")) {
        step.repeat.pointer = at("repeat");
        if (auto repeat = reader.expression(values["repeat"], at("repeat"), variables,
                                            candidate_scope("a repeat count"))) {
            step.repeat.expression = std::move(*repeat);
        }
    }
    if (values.contains("workgroups")) {
        parse_workgroups(reader, values["workgroups"], at("workgroups"), with_iteration, step);
    }
    if (values.contains("push_constants")) {
        parse_push_constants(reader, values["push_constants"], at("push_constants"), with_iteration,
                             step);
    }
    if (values.contains("bindings")) {
        parse_bindings(reader, values["bindings"], at("bindings"), problem, step);
    }
    // A define is compiled in when the file is loaded (or per key, without the device).
    auto without_device = variables;
    std::erase_if(without_device, [](const std::string& name) { return is_device_variable(name); });
    parse_glsl_fields(reader, values, pointers, without_device, draft);
}

/// A step's fields: the one-dispatch fields of the candidate's layers (the defaults, the
/// candidate, its variant), each replaced by the step's own. A step's "spirv" drops an inherited
/// "glsl" with its GLSL-only fields, and its "glsl" an inherited "spirv".
void inherit(const CandidateFields& fields, const Json& spec, const std::string& at, Json& values,
             std::map<std::string, std::string, std::less<>>& pointers) {
    for (const std::string_view field : dispatch_fields()) {
        if (fields.has(field)) {
            values[std::string(field)] = fields[field];
            pointers[std::string(field)] = fields.at(field);
        }
    }
    drop_replaced_source(spec, [&](std::string_view field) {
        values.erase(std::string(field));
        pointers.erase(std::string(field));
    });
    for (const auto& [field, value] : spec.items()) {
        values[field] = value;
        pointers[field] = child(at, field);
    }
}

/// `"steps": [{...}, ...]`: each step's fields, with what it inherits, checked like a
/// candidate's.
void parse_steps(Reader& reader, const CandidateFields& fields, const Problem& problem,
                 CandidateFamily& family, FamilyDraft& draft) {
    const Json& json = fields["steps"];
    const std::string& pointer = fields.at("steps");
    if (!reader.is_type(json, pointer, json.is_array() && !json.empty(),
                        "a non-empty array of steps ({\"spirv\" or \"glsl\", \"workgroups\", "
                        "...})")) {
        return;
    }
    std::set<std::string> step_names;
    for (std::size_t i = 0; i < json.size(); ++i) {
        const std::string at = child(pointer, i);
        const Json& spec = json[i];
        if (!reader.object(spec, at, {}, step_fields())) {
            continue;
        }
        if (spec.contains("spirv") && spec.contains("glsl")) {
            reader.error(child(at, "glsl"),
                         "a step is either \"spirv\" or \"glsl\"; this one gives both");
        }
        if (spec.contains("name")) {
            read_member_name(reader, spec["name"], child(at, "name"), "step", step_names);
        }
        Json values = Json::object();
        std::map<std::string, std::string, std::less<>> pointers;
        inherit(fields, spec, at, values, pointers);
        values.erase("name");
        pointers.erase("name");
        // Fields a later layer changed by the step's name are its faults' places.
        for (const auto& [field, written] : fields.step_pointers) {
            if (field.first == i && pointers.contains(field.second)) {
                pointers[field.second] = written;
            }
        }
        if (!values.contains("spirv") && !values.contains("glsl")) {
            reader.error(at,
                         "missing required field 'spirv' (or 'glsl'), in the step or the "
                         "candidate");
        }
        if (!values.contains("workgroups")) {
            reader.error(at, "missing required field 'workgroups', in the step or the candidate");
        }
        if (!values.contains("glsl")) {
            for (const std::string_view field : glsl_fields()) {
                if (field != "glsl" && values.contains(field)) {
                    reader.error(pointers.find(field)->second,
                                 "'" + std::string(field) +
                                     "' belongs to a \"glsl\" step; this one gives \"spirv\"");
                }
            }
        }
        DispatchStep step;
        StepDraft step_draft;
        parse_step(reader, values, pointers, at, problem, family, step, step_draft);
        family.steps.push_back(std::move(step));
        draft.steps.push_back(std::move(step_draft));
    }
}

/// One family from its layered fields; each fault is reported where its field was written.
void parse_family(Reader& reader, const CandidateFields& fields, const std::string& name,
                  Problem& problem, std::vector<FamilyDraft>& drafts) {
    CandidateFamily family;
    FamilyDraft draft;
    family.name = name;
    family.variant = fields.variant;
    family.pointer = fields.pointer;
    draft.pointer = fields.pointer;
    if (fields.has("grid")) {
        parse_grid(reader, fields["grid"], fields.at("grid"), problem, family);
    }
    if (fields.has("let")) {
        parse_let(reader, fields["let"], fields.at("let"), problem, family);
    }
    const auto variables = candidate_variables(problem, family);
    if (fields.has("constraints")) {
        parse_constraints(reader, fields["constraints"], fields.at("constraints"), variables,
                          family);
    }
    family.priority.pointer = child(fields.pointer, "priority");
    if (fields.has("priority")) {
        family.priority.pointer = fields.at("priority");
        if (auto priority = reader.expression(fields["priority"], fields.at("priority"), variables,
                                              candidate_scope("a priority"))) {
            family.priority.expression = std::move(*priority);
        }
    }
    if (fields.has("reference_only")) {
        family.reference_only =
            reader.boolean(fields["reference_only"], fields.at("reference_only")).value_or(false);
    }
    if (fields.has("requires")) {
        parse_requires(reader, fields["requires"], fields.at("requires"), family);
    }
    if (fields.has("steps")) {
        parse_steps(reader, fields, problem, family, draft);
    } else {
        DispatchStep step;
        StepDraft step_draft;
        parse_step(reader, fields.values, fields.pointers, fields.pointer, problem, family, step,
                   step_draft);
        family.steps.push_back(std::move(step));
        draft.steps.push_back(std::move(step_draft));
    }
    if (family.steps.empty()) {
        return;  // reported by parse_steps; later stages expect at least one step
    }
    problem.families.push_back(std::move(family));
    drafts.push_back(std::move(draft));
}

}  // namespace

void parse_candidates(Reader& reader, const Json& json, const Json* defaults, Problem& problem,
                      std::vector<FamilyDraft>& drafts) {
    const std::string pointer = "/candidates";
    if (!reader.is_type(json, pointer, json.is_array() && !json.empty(),
                        "a non-empty array of candidates")) {
        return;
    }
    const CandidateFields base = parse_defaults(reader, defaults);
    std::set<std::string> names;
    for (std::size_t i = 0; i < json.size(); ++i) {
        const std::string at = child(pointer, i);
        const Json& spec = json[i];
        const std::vector<CandidateFields> layered = layer_candidate(reader, base, json, spec, at);
        std::string name;
        if (spec.is_object() && spec.contains("name")) {
            if (auto written = reader.string(spec["name"], child(at, "name"))) {
                if (!is_candidate_name(*written)) {
                    reader.error(child(at, "name"),
                                 "expected a name of letters, digits, '_', '-' "
                                 "and '.', found " +
                                     describe(spec["name"]));
                } else if (!names.insert(*written).second) {
                    reader.error(child(at, "name"), "candidate name '" + *written +
                                                        "' is used twice; expected unique names");
                }
                name = *written;
            }
        }
        const std::optional<std::string> note = sharer_note(spec, at);
        for (const CandidateFields& fields : layered) {
            std::optional<ReaderAnnotation> sharer;
            if (note) {
                sharer.emplace(reader, parent(fields.pointer), *note);
            }
            parse_family(reader, fields, name, problem, drafts);
        }
    }
}

}  // namespace spvtune::problem::detail
