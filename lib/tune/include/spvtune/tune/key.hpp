#pragma once

#include <concepts>
#include <cstddef>
#include <functional>
#include <ostream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

namespace spvtune::tune {

/// A key that prints itself with an ADL-found `to_string(key)`.
template <class K>
concept StringConvertibleKey = requires(const K& key) {
    { to_string(key) } -> std::convertible_to<std::string>;
};

/// A key that prints itself with `operator<<`.
template <class K>
concept StreamableKey = requires(std::ostream& out, const K& key) {
    { out << key } -> std::convertible_to<std::ostream&>;
};

/// What a tuning key must offer: a value type that is hashable (`std::hash`), comparable,
/// printable (for reports and cache files) and convertible to and from nlohmann::json (its
/// canonical JSON addresses persistent entries).
///
/// Keys should be cheap to build and hash: the cache-hit path builds one per call.
template <class K>
concept TuneKey = std::copy_constructible<K> && std::equality_comparable<K> &&
    (StringConvertibleKey<K> || StreamableKey<K>)&&requires(const K& key,
                                                            const nlohmann::json& json) {
    { std::hash<K>{}(key) } -> std::convertible_to<std::size_t>;
    nlohmann::json(key);
    { json.get<K>() } -> std::same_as<K>;
};

/// The key's printed form: `to_string(key)` when it exists, else `operator<<`.
template <TuneKey K>
std::string key_display(const K& key) {
    if constexpr (StringConvertibleKey<K>) {
        return std::string(to_string(key));
    } else {
        std::ostringstream out;
        out << key;
        return out.str();
    }
}

/// Canonical JSON of a key: the compact dump of its JSON form. nlohmann's default object type
/// is a sorted map, so member order never depends on how `to_json` wrote them.
template <TuneKey K>
std::string canonical_key_json(const K& key) {
    return nlohmann::json(key).dump();
}

}  // namespace spvtune::tune
