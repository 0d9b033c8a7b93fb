#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>

namespace spvtune::base {

// The one idiom for enum <-> text. Spellings that live in files or JSON output are declared with
// NLOHMANN_JSON_SERIALIZE_ENUM next to their enum; names shown only to people come from an
// EnumNames table. Either way each enum's text is written down exactly once.

/// A display-name table: every enumerator with its name.
template <class Enum, std::size_t N>
using EnumNames = std::array<std::pair<Enum, std::string_view>, N>;

/// The name `names` gives `value`; nullopt for a value the table lacks (a value cast from an
/// integer, or a foreign enum such as VkResult that grows with every release).
template <class Enum, std::size_t N>
constexpr std::optional<std::string_view> find_name(const EnumNames<Enum, N>& names,
                                                    Enum value) noexcept {
    for (const auto& [entry, name] : names) {
        if (entry == value) {
            return name;
        }
    }
    return std::nullopt;
}

/// The name `names` gives `value`, or `unknown` for a value the table lacks.
template <class Enum, std::size_t N>
constexpr std::string_view name_of(const EnumNames<Enum, N>& names, Enum value,
                                   std::string_view unknown = "unknown") noexcept {
    return find_name(names, value).value_or(unknown);
}

/// The enumerator `names` spells `text`; nullopt when none does.
template <class Enum, std::size_t N>
constexpr std::optional<Enum> enum_from(const EnumNames<Enum, N>& names,
                                        std::string_view text) noexcept {
    for (const auto& [entry, name] : names) {
        if (name == text) {
            return entry;
        }
    }
    return std::nullopt;
}

/// An enum with a JSON spelling of its own (NLOHMANN_JSON_SERIALIZE_ENUM next to it, found by
/// ADL). Without one nlohmann silently writes the enum's number, so spelling code asks for this.
template <class Enum, class Json>
concept JsonSpelled = std::is_enum_v<Enum> && requires(Json& json, const Enum& value) {
    to_json(json, value);
};

/// The enumerator whose NLOHMANN_JSON_SERIALIZE_ENUM spelling is `json`; nullopt for anything
/// else. nlohmann itself reads an unknown spelling as the table's first entry, which a reader of
/// files must not do; writing the value back and comparing asks that same table, so no second
/// list of spellings can drift from it. Generic in Json so this header needs no JSON library.
template <class Enum, class Json>
std::optional<Enum> enum_from_json(const Json& json) {
    static_assert(JsonSpelled<Enum, Json>, "declare NLOHMANN_JSON_SERIALIZE_ENUM next to the enum");
    if (!json.is_string()) {
        return std::nullopt;
    }
    const auto value = json.template get<Enum>();
    if (Json(value) != json) {
        return std::nullopt;
    }
    return value;
}

}  // namespace spvtune::base
