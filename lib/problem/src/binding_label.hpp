#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace spvtune::problem::detail {

/// How every message names a shader's binding, so load-time and per-key messages read alike:
/// "set 0 binding 1 ('Y')", or without the name when the module has no debug names. Not "0.1",
/// which reads as a number.
inline std::string binding_label(std::uint32_t set, std::uint32_t binding,
                                 std::string_view name = {}) {
    std::string text = "set " + std::to_string(set) + " binding " + std::to_string(binding);
    if (!name.empty()) {
        text += " ('" + std::string(name) + "')";
    }
    return text;
}

}  // namespace spvtune::problem::detail
