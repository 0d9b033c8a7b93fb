#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <spvtune/tune/recording.hpp>

// What the readers of each recording format share: the bounds, JSON pointers, messages naming
// the file and the place, and the spelling of points and times.
namespace spvtune::tune::detail {

/// Bounds on what a recording may hold: far above any real space, low enough that a hostile
/// file cannot make the replay allocate without end.
inline constexpr std::size_t max_parameters = 64;
inline constexpr std::size_t max_values = 65536;
inline constexpr std::size_t max_points = std::size_t{1} << 22;
inline constexpr std::size_t max_times = 4096;

/// A JSON pointer token (RFC 6901): `~` and `/` escaped.
std::string token(std::string_view name);

/// Errors name the file and the JSON pointer of the fault.
class Reader {
  public:
    explicit Reader(std::string_view source) : source_(source) {}

    [[noreturn]] void fail(const std::string& pointer, const std::string& what) const;

    /// `object`'s member `name` of `type`; fails naming `expected` when it is absent or not.
    const nlohmann::json& member(const nlohmann::json& object, const std::string& pointer,
                                 const std::string& name, nlohmann::json::value_t type,
                                 const char* expected) const;

  private:
    std::string_view source_;
};

/// A parameter's values in the order of its levels: numbers by value, then strings, then
/// booleans. Neighbouring levels of a numeric parameter are then neighbouring values whatever
/// order a file lists them in: the searches step between levels and model time over them.
void sort_levels(std::vector<nlohmann::json>& values);

/// A value's spelling in a point's name: strings as written, numbers as JSON writes them.
std::string value_text(const nlohmann::json& value);

/// The values of one parameter that a reader met, each once. Two values are equal when they are
/// the same number (1 and 1.0 alike, but -1 and 2^64 - 1 apart, and integers past 2^53 exactly),
/// the same string or the same boolean: a point's value matches the first of two equal values
/// only, leaving a level that no point holds.
class DistinctValues {
  public:
    /// Adds `value`, met at `pointer`; false when an equal one is there already. Fails at
    /// `pointer` when it is no number, string or boolean, or when another value is written as it
    /// is in a point's name ("10" and 10): the two would name different points alike.
    bool add(const Reader& reader, const nlohmann::json& value, const std::string& pointer);

  private:
    std::set<std::string> identities_;
    std::map<std::string, std::pair<std::string, std::string>> by_text_;  ///< to where, value
};

/// A parameter's level of a point's value, by the equality of DistinctValues.
class LevelOf {
  public:
    explicit LevelOf(const std::vector<nlohmann::json>& values);
    /// Nullopt: no level holds `value`.
    std::optional<std::size_t> operator()(const nlohmann::json& value) const;

  private:
    std::map<std::string, std::size_t> levels_;
};

/// Each parameter's LevelOf, in the parameters' order.
std::vector<LevelOf> levels_of(const std::vector<RecordedParameter>& parameters);

/// `family[p=v,q=w]`, the parameters in the recording's order.
std::string point_name(const std::string& family, const std::vector<RecordedParameter>& parameters,
                       const std::vector<std::size_t>& levels);

/// A time as recorded (Kernel Tuner's in milliseconds, a tune report's in nanoseconds), to
/// nanoseconds; only finite positive times make sense.
double time_ns(const Reader& reader, const nlohmann::json& time, const std::string& pointer,
               bool milliseconds = true);

/// `object`'s string member `name`, or "" when it is absent or not a string: metadata (a device's
/// name, a timestamp) that no reading depends on, so a file is not refused for it.
std::string metadata_text(const nlohmann::json& object, const char* name);

/// The T4 invalidity of a Kernel Tuner failure: `compile` for CompilationFailedConfig,
/// `constraints` for InvalidConfig, else `runtime`.
std::string kernel_tuner_invalidity(std::string_view failure);

/// The one of Kernel Tuner's failure names (the only strings it reads back as failures) that
/// stands for a point's failure: its own error when that is one of them, else the name of its
/// invalidity (RuntimeFailedConfig for any but `compile` and `constraints`).
std::string kernel_tuner_failure(const RecordedPoint& point);

/// A T4 results file (the autotuning community's exchange format): the space is what its
/// results hold.
Recording read_t4(const Reader& reader, const nlohmann::json& json);

}  // namespace spvtune::tune::detail
