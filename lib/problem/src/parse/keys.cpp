#include <algorithm>
#include <unordered_set>

#include "problem_parser.hpp"

namespace spvtune::problem::detail {
namespace {

std::optional<Bucket> parse_bucket(Reader& reader, const Json& json, const std::string& pointer) {
    if (!reader.object(json, pointer, {}, {"base", "min", "max"})) {
        return std::nullopt;
    }
    Bucket bucket;
    const std::size_t errors = reader.error_count();
    constexpr std::int64_t max = std::numeric_limits<std::int64_t>::max();
    if (json.contains("base")) {
        if (auto base = reader.integer(json["base"], child(pointer, "base"), 2, max)) {
            bucket.base = static_cast<std::uint64_t>(*base);
        }
    }
    if (json.contains("min")) {
        if (auto min = reader.integer(json["min"], child(pointer, "min"), 0, max)) {
            bucket.min = static_cast<std::uint64_t>(*min);
        }
    }
    if (json.contains("max")) {
        if (auto max_value = reader.integer(json["max"], child(pointer, "max"), 1, max)) {
            bucket.max = static_cast<std::uint64_t>(*max_value);
        }
    }
    if (bucket.min && bucket.max && *bucket.min > *bucket.max) {
        reader.error(child(pointer, "min"), "expected min <= max, found min " +
                                                std::to_string(*bucket.min) + " > max " +
                                                std::to_string(*bucket.max));
    }
    return reader.error_count() == errors ? std::optional(bucket) : std::nullopt;
}

std::optional<KeyValue> parse_value(Reader& reader, const Parameter& parameter, const Json& json,
                                    const std::string& pointer) {
    switch (parameter.type) {
        case ParameterType::integer: {
            // Bucketing rounds sizes up, which means nothing for negative values.
            const std::int64_t min =
                parameter.bucket ? 0 : std::numeric_limits<std::int64_t>::min();
            if (auto value = reader.integer(json, pointer, min)) {
                return KeyValue(*value);
            }
            return std::nullopt;
        }
        case ParameterType::floating:
            if (auto value = reader.number(json, pointer)) {
                return KeyValue(*value);
            }
            return std::nullopt;
        case ParameterType::string:
            if (auto value = reader.string(json, pointer)) {
                return KeyValue(*value);
            }
            return std::nullopt;
    }
    return std::nullopt;
}

void parse_parameter_spec(Reader& reader, const Json& spec, const std::string& at,
                          Parameter& parameter) {
    const auto type = reader.choice<ParameterType>(
        spec["type"], child(at, "type"),
        {ParameterType::integer, ParameterType::floating, ParameterType::string});
    if (!type) {
        return;
    }
    parameter.type = *type;
    if (!spec.contains("bucket")) {
        return;
    }
    if (parameter.type != ParameterType::integer) {
        reader.error(child(at, "bucket"), "only int parameters can be bucketed; '" +
                                              parameter.name + "' is " +
                                              std::string(to_string(parameter.type)));
        return;
    }
    parameter.bucket = parse_bucket(reader, spec["bucket"], child(at, "bucket"));
}

void unknown_parameter(Reader& reader, const Problem& problem, const std::string& name,
                       const std::string& pointer) {
    const auto names = parameter_names(problem);
    reader.error(pointer,
                 unknown("parameter", name, names) + "; the parameters are: " + join(names));
}

void add_key(Problem& problem, std::unordered_set<ProblemKey>& seen, ProblemKey key,
             std::string pointer) {
    if (seen.insert(key).second) {
        problem.keys.push_back({std::move(key), std::move(pointer)});
    }
}

void parse_list(Reader& reader, const Json& json, const std::string& pointer, Problem& problem,
                std::unordered_set<ProblemKey>& seen) {
    if (!reader.is_type(json, pointer, json.is_array(), "an array of keys")) {
        return;
    }
    for (std::size_t i = 0; i < json.size(); ++i) {
        const std::string at = child(pointer, i);
        const Json& entry = json[i];
        if (!reader.is_type(entry, at, entry.is_object(), "an object (parameter -> value)")) {
            continue;
        }
        const std::size_t errors = reader.error_count();
        std::vector<ProblemKey::Entry> values;
        for (const Parameter& parameter : problem.parameters) {
            if (!entry.contains(parameter.name)) {
                reader.error(at, "missing parameter '" + parameter.name +
                                     "'; a key sets every "
                                     "parameter: " +
                                     join(parameter_names(problem)));
            } else if (auto value = parse_value(reader, parameter, entry[parameter.name],
                                                child(at, parameter.name))) {
                values.emplace_back(parameter.name, std::move(*value));
            }
        }
        for (const auto& [name, value] : entry.items()) {
            if (problem.find_parameter(name) == nullptr) {
                unknown_parameter(reader, problem, name, child(at, name));
            }
        }
        if (reader.error_count() == errors) {
            add_key(problem, seen, ProblemKey(std::move(values)), at);
        }
    }
}

// Far more keys than anyone tunes in one file (each is a full tuning run); a larger product is
// almost certainly a value list pasted into the wrong parameter.
constexpr std::uint64_t max_grid_keys = 65536;

void parse_grid(Reader& reader, const Json& json, const std::string& pointer, Problem& problem,
                std::unordered_set<ProblemKey>& seen) {
    if (!reader.is_type(json, pointer, json.is_object(), "an object (parameter -> values)")) {
        return;
    }
    const std::size_t errors = reader.error_count();
    std::vector<std::vector<KeyValue>> axes;
    for (const Parameter& parameter : problem.parameters) {
        if (!json.contains(parameter.name)) {
            reader.error(pointer, "missing parameter '" + parameter.name +
                                      "'; the grid gives values for every parameter: " +
                                      join(parameter_names(problem)));
            continue;
        }
        const std::string at = child(pointer, parameter.name);
        const Json& values = json[parameter.name];
        if (!reader.is_type(values, at, values.is_array() && !values.empty(),
                            "a non-empty array of values")) {
            continue;
        }
        auto& axis = axes.emplace_back();
        for (std::size_t i = 0; i < values.size(); ++i) {
            if (auto value = parse_value(reader, parameter, values[i], child(at, i))) {
                axis.push_back(std::move(*value));
            }
        }
    }
    for (const auto& [name, value] : json.items()) {
        if (problem.find_parameter(name) == nullptr) {
            unknown_parameter(reader, problem, name, child(pointer, name));
        }
    }
    if (reader.error_count() != errors) {
        return;
    }
    // Counted before any key is made: a typo can ask for 10^12 keys, which would take forever
    // to expand and far longer to tune.
    std::uint64_t keys = 1;
    bool overflow = false;
    for (const auto& axis : axes) {
        overflow = overflow || __builtin_mul_overflow(keys, axis.size(), &keys);
    }
    if (overflow || keys > max_grid_keys) {
        reader.error(pointer, "the grid has " +
                                  (overflow ? "more than 2^64" : std::to_string(keys)) +
                                  " keys; expected at most " + std::to_string(max_grid_keys));
        return;
    }
    // Cartesian product, the first parameter varying slowest.
    std::vector<std::size_t> index(axes.size(), 0);
    for (;;) {
        std::vector<ProblemKey::Entry> values;
        for (std::size_t a = 0; a < axes.size(); ++a) {
            values.emplace_back(problem.parameters[a].name, axes[a][index[a]]);
        }
        add_key(problem, seen, ProblemKey(std::move(values)), pointer);
        std::size_t a = axes.size();
        while (a > 0 && ++index[a - 1] == axes[a - 1].size()) {
            index[--a] = 0;
        }
        if (a == 0) {
            break;
        }
    }
}

}  // namespace

std::vector<std::string> parameter_names(const Problem& problem) {
    std::vector<std::string> names;
    for (const Parameter& parameter : problem.parameters) {
        names.push_back(parameter.name);
    }
    return names;
}

void parse_parameters(Reader& reader, const Json& json, Problem& problem) {
    const std::string pointer = "/parameters";
    if (!reader.is_type(json, pointer, json.is_object(), "an object (name -> parameter)")) {
        return;
    }
    for (const auto& [name, spec] : json.items()) {
        const std::string at = child(pointer, name);
        if (!reader.variable_name(name, at, "a parameter name")) {
            continue;
        }
        Parameter parameter{name, ParameterType::integer, std::nullopt};
        if (reader.object(spec, at, {"type"}, {"bucket"}) && spec.contains("type")) {
            parse_parameter_spec(reader, spec, at, parameter);
        }
        // Kept even when faulty, so expressions naming it add no "unknown variable" noise (the
        // keys, which need its type, are then not checked).
        problem.parameters.push_back(std::move(parameter));
    }
}

bool check_keys_shape(Reader& reader, const Json& json) {
    return reader.object(json, "/keys", {}, {"list", "grid"});
}

void parse_keys(Reader& reader, const Json& json, Problem& problem) {
    const std::string pointer = "/keys";
    if (!check_keys_shape(reader, json)) {
        return;
    }
    if (!json.contains("list") && !json.contains("grid")) {
        reader.error(pointer, "expected 'list' and/or 'grid', found neither");
        return;
    }
    const std::size_t errors = reader.error_count();
    std::unordered_set<ProblemKey> seen;
    if (json.contains("list")) {
        parse_list(reader, json["list"], child(pointer, "list"), problem, seen);
    }
    if (json.contains("grid")) {
        parse_grid(reader, json["grid"], child(pointer, "grid"), problem, seen);
    }
    if (reader.error_count() == errors && problem.keys.empty()) {
        reader.error(pointer, "expected at least one key, found none");
    }
}

}  // namespace spvtune::problem::detail
