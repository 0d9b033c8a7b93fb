#pragma once

#include <cstddef>
#include <string>
#include <string_view>
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
