#include "recording_json.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <stdexcept>

namespace spvtune::tune::detail {

std::string token(std::string_view name) {
    std::string out;
    for (const char c : name) {
        out += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
    }
    return out;
}

void Reader::fail(const std::string& pointer, const std::string& what) const {
    throw std::runtime_error(std::string(source_) + ": " + (pointer.empty() ? "/" : pointer) +
                             ": " + what);
}

const nlohmann::json& Reader::member(const nlohmann::json& object, const std::string& pointer,
                                     const std::string& name, nlohmann::json::value_t type,
                                     const char* expected) const {
    const auto it = object.find(name);
    if (it == object.end()) {
        fail(pointer, "expected a member \"" + name + "\" (" + expected + ")");
    }
    if (it->type() != type) {
        fail(pointer + "/" + token(name), std::string("expected ") + expected);
    }
    return *it;
}

namespace {

/// a < b for two JSON integers, exactly: as doubles, integers past 2^53 would tie.
bool integer_less(const nlohmann::json& a, const nlohmann::json& b) {
    const auto negative = [](const nlohmann::json& v) {
        return !v.is_number_unsigned() && v.get<std::int64_t>() < 0;
    };
    const bool a_negative = negative(a);
    const bool b_negative = negative(b);
    if (a_negative != b_negative) {
        return a_negative;
    }
    return a_negative ? a.get<std::int64_t>() < b.get<std::int64_t>()
                      : a.get<std::uint64_t>() < b.get<std::uint64_t>();
}

}  // namespace

void sort_levels(std::vector<nlohmann::json>& values) {
    const auto rank = [](const nlohmann::json& v) {
        return v.is_number() ? 0 : v.is_string() ? 1 : 2;
    };
    std::stable_sort(values.begin(), values.end(),
                     [&rank](const nlohmann::json& a, const nlohmann::json& b) {
                         if (rank(a) != rank(b)) {
                             return rank(a) < rank(b);
                         }
                         if (a.is_number_integer() && b.is_number_integer()) {
                             return integer_less(a, b);
                         }
                         if (a.is_number()) {
                             return a.get<double>() < b.get<double>();
                         }
                         return a < b;
                     });
}

std::string value_text(const nlohmann::json& value) {
    return value.is_string() ? value.get<std::string>() : value.dump();
}

namespace {

/// Equal values, and only they, have the same identity: integers as their exact decimal
/// digits, and a float that holds an integer as that integer's.
std::string identity(const nlohmann::json& value) {
    if (value.is_number_float()) {
        const double x = value.get<double>();
        constexpr double two_to_63 = 9223372036854775808.0;
        if (std::trunc(x) == x && x >= -two_to_63 && x < 2 * two_to_63) {
            return "n" + (x < 0 ? std::to_string(static_cast<std::int64_t>(x))
                                : std::to_string(static_cast<std::uint64_t>(x)));
        }
        return "n" + value.dump();
    }
    return (value.is_number() ? "n" : value.is_string() ? "s" : "b") + value_text(value);
}

}  // namespace

bool DistinctValues::add(const Reader& reader, const nlohmann::json& value,
                         const std::string& pointer) {
    if (!value.is_number() && !value.is_string() && !value.is_boolean()) {
        reader.fail(pointer, "expected a number, a string or a boolean");
    }
    if (!identities_.insert(identity(value)).second) {
        return false;
    }
    const std::string text = value_text(value);
    if (const auto [earlier, fresh] = by_text_.try_emplace(text, pointer, value.dump()); !fresh) {
        reader.fail(pointer, "value " + value.dump() + " and " + earlier->second.second + " (at " +
                                 earlier->second.first + ") are both written " + text +
                                 " in a point's name; expected distinct values");
    }
    return true;
}

LevelOf::LevelOf(const std::vector<nlohmann::json>& values) {
    for (std::size_t level = 0; level < values.size(); ++level) {
        levels_.emplace(identity(values[level]), level);
    }
}

std::optional<std::size_t> LevelOf::operator()(const nlohmann::json& value) const {
    const auto it = levels_.find(identity(value));
    return it == levels_.end() ? std::nullopt : std::optional(it->second);
}

std::vector<LevelOf> levels_of(const std::vector<RecordedParameter>& parameters) {
    std::vector<LevelOf> out;
    out.reserve(parameters.size());
    for (const RecordedParameter& parameter : parameters) {
        out.emplace_back(parameter.values);
    }
    return out;
}

std::string metadata_text(const nlohmann::json& object, const char* name) {
    if (!object.is_object()) {
        return "";
    }
    const auto it = object.find(name);
    return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

namespace {

/// Kernel Tuner's failure names and the T4 invalidity each stands for; the last is the default.
struct KernelTunerFailure {
    std::string_view name;
    std::string_view invalidity;
};
constexpr std::array<KernelTunerFailure, 3> kernel_tuner_failures{{
    {"CompilationFailedConfig", "compile"},
    {"InvalidConfig", "constraints"},
    {"RuntimeFailedConfig", "runtime"},
}};

}  // namespace

std::string kernel_tuner_invalidity(std::string_view failure) {
    for (const KernelTunerFailure& known : kernel_tuner_failures) {
        if (known.name == failure) {
            return std::string(known.invalidity);
        }
    }
    return std::string(kernel_tuner_failures.back().invalidity);
}

std::string kernel_tuner_failure(const RecordedPoint& point) {
    for (const KernelTunerFailure& known : kernel_tuner_failures) {
        if (known.name == point.error) {
            return point.error;
        }
    }
    for (const KernelTunerFailure& known : kernel_tuner_failures) {
        if (known.invalidity == point.invalidity) {
            return std::string(known.name);
        }
    }
    return std::string(kernel_tuner_failures.back().name);
}

std::string point_name(const std::string& family, const std::vector<RecordedParameter>& parameters,
                       const std::vector<std::size_t>& levels) {
    std::string name = family + "[";
    for (std::size_t p = 0; p < parameters.size(); ++p) {
        name += (p == 0 ? "" : ",") + parameters[p].name + "=" +
                value_text(parameters[p].values[levels[p]]);
    }
    return name + "]";
}

double time_ns(const Reader& reader, const nlohmann::json& time, const std::string& pointer,
               bool milliseconds) {
    const std::string unit = milliseconds ? "milliseconds" : "nanoseconds";
    if (!time.is_number()) {
        reader.fail(pointer, "expected a time in " + unit + " (a number)");
    }
    const double value = time.get<double>();
    // Finite in nanoseconds too: 1e305 ms would be an infinite time.
    const double ns = milliseconds ? value * 1e6 : value;
    if (!std::isfinite(ns) || value <= 0) {
        reader.fail(pointer, "expected a positive time in " + unit + ", got " + time.dump());
    }
    return ns;
}

}  // namespace spvtune::tune::detail
