#pragma once

// A candidate's fields come in layers: the top-level "defaults", then the candidate, then one of
// its "variants". Each later layer replaces a field of an earlier one whole. Every field keeps
// the JSON pointer of the layer that wrote it, so a fault is reported where it was written.

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "candidate_fields.hpp"
#include "json_reader.hpp"

namespace spvtune::problem::detail {

/// The fields of one candidate family after layering.
struct CandidateFields {
    std::string pointer;  ///< the candidate ("/candidates/2") or its variant (".../variants/1")
    std::string variant;  ///< the variant's name; empty without variants
    Json values = Json::object();
    std::map<std::string, std::string, std::less<>> pointers;  ///< field -> where it was written
    /// (step index, field) -> where a later layer wrote that field of a named step ("steps"
    /// given as an object, by step name); other step fields were written in "steps" itself.
    std::map<std::pair<std::size_t, std::string>, std::string, std::less<>> step_pointers;

    bool has(std::string_view field) const { return values.contains(field); }
    const Json& operator[](std::string_view field) const { return values.at(std::string(field)); }
    const std::string& at(std::string_view field) const { return pointers.find(field)->second; }
};

/// When candidate `spec` at `pointer` shares another's variants (`"variants": "NAME"`), the
/// note its faults in them carry: which candidate found them.
std::optional<std::string> sharer_note(const Json& spec, const std::string& pointer);

/// Checks `/defaults` (candidate fields except "name" and "variants") and returns its valid
/// fields as the first layer; an empty layer when `defaults` is null.
CandidateFields parse_defaults(Reader& reader, const Json* defaults);

/// The layered fields of the candidate `spec` at `pointer`, one of `candidates`: one set, or one
/// per variant, its own or (`"variants": "NAME"`) those of candidate NAME. Checks
/// the candidate's and each variant's own fields (unknown ones get a "did you mean") and that
/// "spirv" or "glsl", and "workgroups", are set by some layer. A layer's "spirv" replaces an
/// earlier "glsl" with its GLSL-only fields, and a "glsl" an earlier "spirv". A layer's "steps"
/// given as an object (step name -> fields) changes those fields of the earlier layers' named
/// steps instead of replacing the steps.
std::vector<CandidateFields> layer_candidate(Reader& reader, const CandidateFields& defaults,
                                             const Json& candidates, const Json& spec,
                                             const std::string& pointer);

/// Letters, digits, '_', '-' and '.': the names of candidates, variants and steps.
bool is_candidate_name(std::string_view name);

/// Reads the `name` at `pointer` of a variant or a step (`what`), reporting one that breaks the
/// naming rule or is already in `names` (the names used so far in its candidate); returns the
/// string as written.
std::optional<std::string> read_member_name(Reader& reader, const Json& name,
                                            const std::string& pointer, std::string_view what,
                                            std::set<std::string>& names);

/// Calls `drop` with each field of earlier layers that `layer` replaces by naming a module
/// source: its "spirv" replaces "glsl" with the fields only GLSL has, its "glsl" a "spirv".
template <typename Drop>
void drop_replaced_source(const Json& layer, Drop&& drop) {
    if (layer.contains("spirv")) {
        for (const std::string_view field : glsl_fields()) {
            drop(field);
        }
    } else if (layer.contains("glsl")) {
        drop("spirv");
    }
}

}  // namespace spvtune::problem::detail
