#pragma once

// A candidate's fields come in layers: the top-level "defaults", then the candidate, then one of
// its "variants". Each later layer replaces a field of an earlier one whole. Every field keeps
// the JSON pointer of the layer that wrote it, so a fault is reported where it was written.

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "json_reader.hpp"

namespace spvtune::problem::detail {

/// The fields of one candidate family after layering.
struct CandidateFields {
    std::string pointer;  ///< the candidate ("/candidates/2") or its variant (".../variants/1")
    std::string variant;  ///< the variant's name; empty without variants
    Json values = Json::object();
    std::map<std::string, std::string, std::less<>> pointers;  ///< field -> where it was written

    bool has(std::string_view field) const { return values.contains(field); }
    const Json& operator[](std::string_view field) const { return values.at(std::string(field)); }
    const std::string& at(std::string_view field) const { return pointers.find(field)->second; }
};

/// Checks `/defaults` (candidate fields except "name" and "variants") and returns its valid
/// fields as the first layer; an empty layer when `defaults` is null.
CandidateFields parse_defaults(Reader& reader, const Json* defaults);

/// The layered fields of the candidate `spec` at `pointer`: one set, or one per variant. Checks
/// the candidate's and each variant's own fields (unknown ones get a "did you mean") and that
/// "spirv" or "glsl", and "workgroups", are set by some layer. A layer's "spirv" replaces an
/// earlier "glsl" with its GLSL-only fields, and a "glsl" an earlier "spirv".
std::vector<CandidateFields> layer_candidate(Reader& reader, const CandidateFields& defaults,
                                             const Json& spec, const std::string& pointer);

/// Letters, digits, '_', '-' and '.': the names of candidates and variants.
bool is_candidate_name(std::string_view name);

}  // namespace spvtune::problem::detail
