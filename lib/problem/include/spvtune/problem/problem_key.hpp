#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

namespace spvtune::problem {

/// The value of one key parameter: an integer, a float or a string.
using KeyValue = std::variant<std::int64_t, double, std::string>;

/// A problem key: a value per key parameter. It is the tuner's key type (tune::TuneKey).
///
/// Entries are kept sorted by parameter name, whatever order they were given in: the key's JSON
/// is an object (which nlohmann sorts), so sorting makes a key read back from a cache file equal,
/// and print the same, as the key built from the problem.
class ProblemKey {
  public:
    using Entry = std::pair<std::string, KeyValue>;

    ProblemKey() = default;
    /// Names must be distinct (a repeated name is std::invalid_argument).
    explicit ProblemKey(std::vector<Entry> entries);

    /// Sorted by name.
    const std::vector<Entry>& entries() const noexcept { return entries_; }
    /// The value of `name`, or nullptr.
    const KeyValue* find(std::string_view name) const;

    friend bool operator==(const ProblemKey&, const ProblemKey&) = default;

  private:
    std::vector<Entry> entries_;
};

/// A value as written in keys: `4096`, `2.5` (a float always has '.' or an exponent), `f32`.
std::string to_string(const KeyValue& value);

/// `dtype=f32,n=4096` (names sorted).
std::string to_string(const ProblemKey& key);

/// A JSON object name -> value; ints as JSON integers, floats as JSON floats.
void to_json(nlohmann::json& json, const ProblemKey& key);
/// Reads what to_json writes. Throws nlohmann::json::type_error for anything else (a non-object,
/// a boolean, an array, an integer beyond int64).
void from_json(const nlohmann::json& json, ProblemKey& key);

}  // namespace spvtune::problem

template <>
struct std::hash<spvtune::problem::ProblemKey> {
    std::size_t operator()(const spvtune::problem::ProblemKey& key) const noexcept;
};
