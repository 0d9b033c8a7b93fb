#include "candidate_layers.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>

#include "candidate_fields.hpp"

namespace spvtune::problem::detail {
namespace {

void erase(CandidateFields& fields, std::string_view field) {
    fields.values.erase(std::string(field));
    fields.pointers.erase(std::string(field));
}

/// A layer that names a module source replaces the other kind from earlier layers, with the
/// fields that only belong to it: `defaults` may say "glsl" and one candidate "spirv". A later
/// layer's "spirv" or "glsl" replaces earlier steps; "steps" keeps the earlier one-dispatch
/// fields, which its steps inherit.
void replace_source(Reader& reader, CandidateFields& fields, const Json& layer,
                    const std::string& pointer) {
    const bool spirv = layer.contains("spirv");
    const bool glsl = layer.contains("glsl");
    if (spirv && glsl) {
        reader.error(child(pointer, "glsl"),
                     "a candidate is either \"spirv\" or \"glsl\"; this one gives both");
    }
    if (layer.contains("steps")) {
        return;  // the one-dispatch fields so far, and this layer's, are its steps' defaults
    }
    if (spirv || glsl) {
        erase(fields, "steps");
    }
    drop_replaced_source(layer, [&](std::string_view field) { erase(fields, field); });
}

/// The index of the step named `name` in `steps`, if one is.
std::optional<std::size_t> find_step(const Json& steps, const std::string& name) {
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const Json& step = steps[i];
        if (step.is_object() && step.contains("name") && step["name"] == name) {
            return i;
        }
    }
    return std::nullopt;
}

/// `"steps": {"reduce": {...}}` in a later layer: each named step of the earlier layers' steps
/// takes the fields given for it, as a layer's fields replace a candidate's (a "spirv" drops
/// the step's "glsl" with its GLSL-only fields, a "glsl" its "spirv").
void override_named_steps(Reader& reader, CandidateFields& fields, const Json& by_name,
                          const std::string& pointer) {
    if (!fields.has("steps") || !fields["steps"].is_array()) {
        reader.error(pointer,
                     "steps given by name change the named steps of the candidate or the "
                     "defaults, and neither gives \"steps\" as an array");
        return;
    }
    if (by_name.empty()) {
        reader.error(pointer,
                     "expected at least one step name with the fields to change, found {}");
        return;
    }
    Json& steps = fields.values["steps"];
    for (const auto& [name, changes] : by_name.items()) {
        const std::string at = child(pointer, name);
        const std::optional<std::size_t> index = find_step(steps, name);
        if (!index) {
            std::string named;
            for (const Json& step : steps) {
                if (step.is_object() && step.contains("name") && step["name"].is_string()) {
                    named += (named.empty() ? "" : ", ") + step["name"].get<std::string>();
                }
            }
            reader.error(at, "no step is named '" + name + "'; " +
                                 (named.empty() ? "no step has a \"name\""
                                                : "the named steps are: " + named));
            continue;
        }
        if (!reader.object(changes, at, {}, step_fields())) {
            continue;
        }
        Json& step = steps[*index];
        drop_replaced_source(changes, [&](std::string_view field) {
            step.erase(std::string(field));
            fields.step_pointers.erase({*index, std::string(field)});
        });
        for (const auto& [field, value] : changes.items()) {
            step[field] = value;
            fields.step_pointers[{*index, field}] = child(at, field);
        }
    }
}

/// Copies every field of `layer` over `fields`, recording where each was written.
void overlay(Reader& reader, CandidateFields& fields, const Json& layer, const std::string& pointer,
             std::initializer_list<std::string_view> skipped) {
    replace_source(reader, fields, layer, pointer);
    for (const auto& [name, value] : layer.items()) {
        if (std::find(skipped.begin(), skipped.end(), name) != skipped.end()) {
            continue;
        }
        if (name == "steps" && value.is_object()) {
            override_named_steps(reader, fields, value, child(pointer, name));
            continue;
        }
        if (name == "steps") {
            fields.step_pointers.clear();
        }
        fields.values[name] = value;
        fields.pointers[name] = child(pointer, name);
    }
}

// Fields without which a candidate cannot run; any layer may set them.
void require_run_fields(Reader& reader, const CandidateFields& fields) {
    if (fields.has("steps")) {
        return;  // each step, with what it inherits, is checked by parse_steps
    }
    if (!fields.has("spirv") && !fields.has("glsl")) {
        reader.error(fields.pointer, "missing required field 'spirv' (or 'glsl')");
    }
    if (!fields.has("workgroups")) {
        reader.error(fields.pointer, "missing required field 'workgroups'");
    }
    if (fields.has("glsl")) {
        return;
    }
    for (const std::string_view field : glsl_fields()) {
        if (fields.has(field)) {
            reader.error(fields.at(field), "'" + std::string(field) +
                                               "' belongs to a \"glsl\" candidate; this one "
                                               "gives \"spirv\"");
        }
    }
}

}  // namespace

bool is_candidate_name(std::string_view name) {
    return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-' || c == '.';
    });
}

std::optional<std::string> read_member_name(Reader& reader, const Json& name,
                                            const std::string& pointer, std::string_view what,
                                            std::set<std::string>& names) {
    const auto written = reader.string(name, pointer);
    if (written && !is_candidate_name(*written)) {
        reader.error(pointer, "expected a " + std::string(what) +
                                  " name of letters, digits, '_', '-' and '.', found " +
                                  describe(name));
    } else if (written && !names.insert(*written).second) {
        reader.error(pointer, std::string(what) + " name '" + *written +
                                  "' is used twice in this candidate; expected unique names");
    }
    return written;
}

CandidateFields parse_defaults(Reader& reader, const Json* defaults) {
    CandidateFields fields;
    fields.pointer = "/defaults";
    if (defaults == nullptr || !reader.object(*defaults, fields.pointer, {}, layer_fields())) {
        return fields;
    }
    // An unknown field is reported above and then never read; these two are the candidate's own.
    overlay(reader, fields, *defaults, fields.pointer, {"name", "variants"});
    return fields;
}

namespace {

/// The variants `"variants": "tiled"` shares: candidate `tiled`'s list, and where it is written.
/// Null, reported, when no other candidate of that name gives a list of its own.
/// A shared variant that names a module or lists steps is reported in layer_candidate.
const Json* shared_variants(Reader& reader, const Json& candidates, const Json& spec,
                            const std::string& at, std::string& list_at) {
    const std::string wanted = spec["variants"].get<std::string>();
    std::vector<std::string> sharable;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        const Json& other = candidates[i];
        if (&other == &spec || !other.is_object() || !other.contains("name") ||
            !other["name"].is_string() || !other.contains("variants") ||
            !other["variants"].is_array()) {
            continue;
        }
        const std::string name = other["name"].get<std::string>();
        if (name == wanted) {
            list_at = child(child("/candidates", i), "variants");
            return &other["variants"];
        }
        sharable.push_back(name);
    }
    reader.error(at, unknown("candidate with variants to share", wanted, sharable) +
                         (sharable.empty() ? "; no other candidate gives a list of variants"
                                           : "; expected one of: " + join_some(sharable)));
    return nullptr;
}

/// A variant that gives a module or a list of steps would make the candidate sharing it run the
/// variant's kernel under its own name (a split-K matmul timing the plain one), so a shared
/// variant carries values only (let, specialization, defines, workgroups, ...). Returns the
/// variant less what is refused, so that nothing built on a refused field is reported too.
Json shared_values(Reader& reader, const Json& variant, const std::string& variant_at) {
    Json values = variant;
    for (const char* field : {"spirv", "glsl", "steps"}) {
        const auto found = variant.find(field);
        if (found == variant.end() || (std::string_view(field) == "steps" && !found->is_array())) {
            continue;
        }
        reader.error(
            child(variant_at, field),
            "a shared variant gives \"" + std::string(field) +
                "\", which would replace the sharing candidate's own kernel; expected shared "
                "variants to give values only (let, specialization, defines, "
                "workgroups, ...), and each candidate its own module or steps");
        values.erase(field);
    }
    return values;
}

}  // namespace

std::optional<std::string> sharer_note(const Json& spec, const std::string& pointer) {
    if (!spec.is_object() || !spec.contains("variants") || !spec["variants"].is_string()) {
        return std::nullopt;
    }
    const std::string name =
        spec.contains("name") && spec["name"].is_string() ? spec["name"].get<std::string>() : "";
    return " (in candidate '" + name + "', " + pointer + ", which shares this variant)";
}

std::vector<CandidateFields> layer_candidate(Reader& reader, const CandidateFields& defaults,
                                             const Json& candidates, const Json& spec,
                                             const std::string& pointer) {
    static constexpr std::string_view name[] = {"name"};
    if (!reader.object(spec, pointer, name, candidate_fields())) {
        return {};
    }
    CandidateFields candidate = defaults;
    candidate.pointer = pointer;
    overlay(reader, candidate, spec, pointer, {"variants"});
    if (!spec.contains("variants")) {
        require_run_fields(reader, candidate);
        return {std::move(candidate)};
    }
    std::string at = child(pointer, "variants");
    const Json* list = &spec["variants"];
    const bool shared = list->is_string();
    if (shared) {
        // Each shared variant is layered over this candidate; a fault in it is reported where
        // the variant is written.
        list = shared_variants(reader, candidates, spec, at, at);
        if (list == nullptr) {
            return {};
        }
    }
    const Json& variants = *list;
    if (!reader.is_type(variants, at, variants.is_array() && !variants.empty(),
                        "a non-empty array of variants ({\"name\": ..., fields to replace}), or "
                        "the name of a candidate whose variants to share")) {
        return {};
    }
    std::optional<ReaderAnnotation> sharer;
    if (shared) {
        sharer.emplace(reader, at, *sharer_note(spec, pointer));
    }
    std::vector<CandidateFields> layered;
    std::set<std::string> names;
    for (std::size_t i = 0; i < variants.size(); ++i) {
        const std::string variant_at = child(at, i);
        const Json& variant = variants[i];
        if (!reader.object(variant, variant_at, name, layer_fields())) {
            continue;
        }
        CandidateFields fields = candidate;
        fields.pointer = variant_at;
        if (variant.contains("name")) {
            fields.variant = read_member_name(reader, variant["name"], child(variant_at, "name"),
                                              "variant", names)
                                 .value_or("");
        }
        overlay(reader, fields, shared ? shared_values(reader, variant, variant_at) : variant,
                variant_at, {"name"});
        require_run_fields(reader, fields);
        layered.push_back(std::move(fields));
    }
    return layered;
}

}  // namespace spvtune::problem::detail
