#include "cache_json_printer.hpp"

namespace spvtune::cache::cache_json {
namespace {

using nlohmann::json;

void append_compact(std::string& out, const json& value) {
    out += value.dump(-1, ' ', false, json::error_handler_t::replace);
}

void append(std::string& out, const json& value, std::size_t depth, bool in_array) {
    const bool expand = (value.is_object() && !in_array) || value.is_array();
    if (!expand || value.empty()) {
        append_compact(out, value);
        return;
    }
    const std::string indent(2 * (depth + 1), ' ');
    out += value.is_object() ? "{\n" : "[\n";
    bool first = true;
    for (auto it = value.begin(); it != value.end(); ++it) {
        if (!first) {
            out += ",\n";
        }
        first = false;
        out += indent;
        if (value.is_object()) {
            append_compact(out, json(it.key()));
            out += ": ";
        }
        append(out, it.value(), depth + 1, value.is_array());
    }
    out += '\n';
    out.append(2 * depth, ' ');
    out += value.is_object() ? '}' : ']';
}

}  // namespace

std::string print(const json& value) {
    std::string out;
    append(out, value, 0, false);
    out += '\n';
    return out;
}

}  // namespace spvtune::cache::cache_json
