#include "candidate_layers.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include "candidate_fields.hpp"

namespace spvtune::problem::detail {
namespace {

// The fields that only mean something with one kind of module source.
constexpr std::string_view glsl_only[] = {"glsl", "defines", "include_dirs", "glsl_target"};

void erase(CandidateFields& fields, std::string_view field) {
    fields.values.erase(std::string(field));
    fields.pointers.erase(std::string(field));
}

/// A layer that names a module source replaces the other kind from earlier layers, with the
/// fields that only belong to it: `defaults` may say "glsl" and one candidate "spirv". Likewise
/// "steps" replaces an earlier layer's one-dispatch fields, and "spirv" or "glsl" earlier steps.
void replace_source(Reader& reader, CandidateFields& fields, const Json& layer,
                    const std::string& pointer) {
    const bool spirv = layer.contains("spirv");
    const bool glsl = layer.contains("glsl");
    if (spirv && glsl) {
        reader.error(child(pointer, "glsl"),
                     "a candidate is either \"spirv\" or \"glsl\"; this one gives both");
    }
    if (layer.contains("steps")) {
        // A one-dispatch field beside "steps" in this layer is reported by require_run_fields.
        for (const std::string_view field : dispatch_fields()) {
            erase(fields, field);
        }
        return;
    }
    if (spirv || glsl) {
        erase(fields, "steps");
    }
    if (spirv) {
        for (const std::string_view field : glsl_only) {
            erase(fields, field);
        }
    } else if (glsl) {
        erase(fields, "spirv");
    }
}

/// Copies every field of `layer` over `fields`, recording where each was written.
void overlay(Reader& reader, CandidateFields& fields, const Json& layer, const std::string& pointer,
             std::initializer_list<std::string_view> skipped) {
    replace_source(reader, fields, layer, pointer);
    for (const auto& [name, value] : layer.items()) {
        if (std::find(skipped.begin(), skipped.end(), name) == skipped.end()) {
            fields.values[name] = value;
            fields.pointers[name] = child(pointer, name);
        }
    }
}

// Fields without which a candidate cannot run; any layer may set them.
void require_run_fields(Reader& reader, const CandidateFields& fields) {
    if (fields.has("steps")) {
        // Written beside "steps", or by a later layer (a variant) over an earlier "steps".
        for (const std::string_view field : dispatch_fields()) {
            if (fields.has(field)) {
                reader.error(fields.at(field), "'" + std::string(field) +
                                                   "' is a field of a step; this candidate "
                                                   "gives \"steps\" (" +
                                                   fields.at("steps") +
                                                   "): put it in each step that needs it");
            }
        }
        return;
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
    for (const std::string_view field : glsl_only) {
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

std::vector<CandidateFields> layer_candidate(Reader& reader, const CandidateFields& defaults,
                                             const Json& spec, const std::string& pointer) {
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
    const std::string at = child(pointer, "variants");
    const Json& variants = spec["variants"];
    if (!reader.is_type(variants, at, variants.is_array() && !variants.empty(),
                        "a non-empty array of variants ({\"name\": ..., fields to replace})")) {
        return {};
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
            const std::string name_at = child(variant_at, "name");
            const auto name = reader.string(variant["name"], name_at);
            if (name && !is_candidate_name(*name)) {
                reader.error(name_at,
                             "expected a variant name of letters, digits, '_', '-' and '.', "
                             "found " +
                                 describe(variant["name"]));
            } else if (name && !names.insert(*name).second) {
                reader.error(name_at, "variant name '" + *name +
                                          "' is used twice in this candidate; expected unique "
                                          "names");
            }
            fields.variant = name.value_or("");
        }
        overlay(reader, fields, variant, variant_at, {"name"});
        require_run_fields(reader, fields);
        layered.push_back(std::move(fields));
    }
    return layered;
}

}  // namespace spvtune::problem::detail
