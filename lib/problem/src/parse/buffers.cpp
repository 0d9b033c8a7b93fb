#include <cmath>
#include <limits>

#include "problem_parser.hpp"
#include "value_conversion.hpp"

namespace spvtune::problem::detail {
namespace {

const std::vector<std::string> element_type_names = {"f16", "f32", "f64", "i8",  "u8", "i16",
                                                     "u16", "i32", "u32", "i64", "u64"};

/// The values an element of `type` holds: a float type's largest finite magnitude, an integer
/// type's range (an integer value is also whole).
struct TypeRange {
    double low;
    double high;
    bool integer;
    std::string text;
};

TypeRange range_of(vulkan::ElementType type) {
    using vulkan::ElementType;
    const auto ints = [](auto tag) {
        using T = decltype(tag);
        return TypeRange{static_cast<double>(std::numeric_limits<T>::min()),
                         static_cast<double>(std::numeric_limits<T>::max()), true,
                         "an integer in " + std::to_string(std::numeric_limits<T>::min()) + ".." +
                             std::to_string(std::numeric_limits<T>::max())};
    };
    switch (type) {
        case ElementType::f16:
        case ElementType::f32:
        case ElementType::f64: {
            const double largest = vulkan::largest_finite(type);
            if (type == ElementType::f64) {
                return {-largest, largest, false, "a finite number"};
            }
            return {-largest, largest, false, detail::magnitude_bound_text(type)};
        }
        case ElementType::i8:
            return ints(std::int8_t{});
        case ElementType::u8:
            return ints(std::uint8_t{});
        case ElementType::i16:
            return ints(std::int16_t{});
        case ElementType::u16:
            return ints(std::uint16_t{});
        case ElementType::i32:
            return ints(std::int32_t{});
        case ElementType::u32:
            return ints(std::uint32_t{});
        case ElementType::i64:
            return ints(std::int64_t{});
        case ElementType::u64:
            return ints(std::uint64_t{});
    }
    return {0, 0, false, ""};
}

/// A fill value the buffer's elements can hold: otherwise a float overflows to infinity and an
/// integer wraps (-5 as a u32 is 4294967291), and every candidate is checked against that.
/// `constant`: the value itself is stored, so an integer type needs a whole number (iota steps
/// and random bounds may be fractional: the elements are rounded).
std::optional<double> element_value(Reader& reader, const Json& json, const std::string& pointer,
                                    std::optional<vulkan::ElementType> type,
                                    bool constant = false) {
    const auto value = reader.number(json, pointer);
    if (!value || !type) {
        return value;
    }
    const TypeRange range = range_of(*type);
    const bool whole = !constant || !range.integer || std::floor(*value) == *value;
    if (*value < range.low || *value > range.high || !whole) {
        reader.error(pointer, "expected a value of type " + std::string(vulkan::to_string(*type)) +
                                  " (" + range.text + "), found " + describe(json));
        return std::nullopt;
    }
    return value;
}

std::optional<vulkan::Fill> parse_init(Reader& reader, const Json& json, const std::string& pointer,
                                       std::optional<vulkan::ElementType> type) {
    if (json.is_string()) {
        if (json.get<std::string>() == "zeros") {
            return vulkan::FillZeros{};
        }
        reader.error(pointer,
                     "expected \"zeros\" or an object with one of 'constant', 'iota', "
                     "'random', found " +
                         describe(json));
        return std::nullopt;
    }
    if (!reader.object(json, pointer, {}, {"zeros", "constant", "iota", "random"})) {
        return std::nullopt;
    }
    if (json.size() != 1) {
        reader.error(pointer,
                     "expected exactly one of 'zeros', 'constant', 'iota', 'random', found " +
                         std::to_string(json.size()) + " fields");
        return std::nullopt;
    }
    const std::size_t errors = reader.error_count();
    // Copies: a structured binding to *items().begin() would outlive the iteration proxy.
    const std::string kind = json.begin().key();
    const Json& value = json.begin().value();
    const std::string at = child(pointer, kind);
    if (kind == "zeros") {
        return vulkan::FillZeros{};
    }
    if (kind == "constant") {
        if (auto number = element_value(reader, value, at, type, true)) {
            return vulkan::FillConstant{*number};
        }
        return std::nullopt;
    }
    if (kind == "iota") {
        vulkan::FillIota iota;
        if (reader.object(value, at, {}, {"start", "step"})) {
            if (value.contains("start")) {
                iota.start =
                    element_value(reader, value["start"], child(at, "start"), type).value_or(0);
            }
            if (value.contains("step")) {
                iota.step =
                    element_value(reader, value["step"], child(at, "step"), type).value_or(1);
            }
        }
        return reader.error_count() == errors ? std::optional<vulkan::Fill>(iota) : std::nullopt;
    }
    if (kind != "random") {
        return std::nullopt;  // reported by object()
    }
    vulkan::FillRandom random;
    if (reader.object(value, at, {}, {"seed", "min", "max", "denormals"})) {
        if (value.contains("seed")) {
            random.seed = static_cast<std::uint64_t>(
                reader.integer(value["seed"], child(at, "seed"), 0).value_or(0));
        }
        if (value.contains("min")) {
            random.low = element_value(reader, value["min"], child(at, "min"), type).value_or(0);
        }
        if (value.contains("max")) {
            random.high = element_value(reader, value["max"], child(at, "max"), type).value_or(1);
        }
        if (value.contains("denormals")) {
            random.denormals =
                reader.boolean(value["denormals"], child(at, "denormals")).value_or(false);
        }
        if (reader.error_count() == errors && !(random.low <= random.high)) {
            reader.error(child(at, "min"), "expected min <= max, found min " + value["min"].dump() +
                                               " > max " + value["max"].dump());
        }
    }
    return reader.error_count() == errors ? std::optional<vulkan::Fill>(random) : std::nullopt;
}

/// A count that uses no key parameter is the same for every key: check it now.
void check_constant_count(Reader& reader, const Expression& count, const std::string& pointer,
                          std::int64_t least = 1) {
    if (!count.variables().empty()) {
        return;
    }
    try {
        const std::int64_t value = as_int(count.evaluate(Scope{}), count.text());
        if (value < least) {
            reader.error(pointer, std::string(least > 0 ? "expected a count > 0"
                                                        : "expected a padding >= 0") +
                                      ", found " + std::to_string(value));
        }
    } catch (const ExpressionError& error) {
        reader.error(pointer, error.message(), error.render("    "));
    }
}

}  // namespace

std::vector<std::string> buffer_names(const Problem& problem) {
    std::vector<std::string> names;
    for (const BufferSpec& buffer : problem.buffers) {
        names.push_back(buffer.name);
    }
    return names;
}

void parse_buffers(Reader& reader, const Json& json, Problem& problem) {
    const std::string pointer = "/buffers";
    if (!reader.is_type(json, pointer, json.is_object() && !json.empty(),
                        "a non-empty object (name -> buffer)")) {
        return;
    }
    const std::vector<std::string> key_names = parameter_names(problem);
    for (const auto& [name, spec] : json.items()) {
        const std::string at = child(pointer, name);
        if (!reader.identifier(name, at, "a buffer name") ||
            !reader.object(spec, at, {"type", "count", "role"}, {"init", "padding"})) {
            continue;
        }
        BufferSpec buffer;
        std::optional<vulkan::ElementType> element_type;  // none when missing or unknown
        buffer.name = name;
        buffer.pointer = at;
        if (spec.contains("type")) {
            if (auto type = reader.string(spec["type"], child(at, "type"))) {
                if (auto parsed = vulkan::parse_element_type(*type)) {
                    buffer.type = *parsed;
                    element_type = parsed;
                } else {
                    reader.error(child(at, "type"),
                                 "unknown element type '" + *type +
                                     "'; expected one of: " + join(element_type_names));
                }
            }
        }
        if (spec.contains("count")) {
            if (auto count = reader.expression(spec["count"], child(at, "count"), key_names,
                                               "a buffer count may use the key parameters")) {
                buffer.count = std::move(*count);
                check_constant_count(reader, buffer.count, child(at, "count"));
            }
        }
        if (spec.contains("padding")) {
            if (auto padding = reader.expression(spec["padding"], child(at, "padding"), key_names,
                                                 "a buffer's padding may use the key parameters")) {
                buffer.padding = std::move(*padding);
                check_constant_count(reader, *buffer.padding, child(at, "padding"), 0);
            }
        }
        if (spec.contains("role")) {
            buffer.role = reader
                              .choice<BufferRole>(spec["role"], child(at, "role"),
                                                  {BufferRole::input, BufferRole::output,
                                                   BufferRole::inout, BufferRole::scratch})
                              .value_or(BufferRole::input);
        }
        buffer.init = vulkan::FillZeros{};
        if (spec.contains("init")) {
            if (auto init = parse_init(reader, spec["init"], child(at, "init"), element_type)) {
                buffer.init = *init;
            }
        }
        // Kept even when faulty, so bindings naming it do not add "unknown buffer" noise.
        problem.buffers.push_back(std::move(buffer));
    }
}

}  // namespace spvtune::problem::detail
