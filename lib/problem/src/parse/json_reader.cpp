#include "json_reader.hpp"

#include <algorithm>
#include <cctype>

#include <spvtune/base/json_text.hpp>
#include <spvtune/problem/device_properties.hpp>
#include <spvtune/problem/suggest.hpp>
#include <spvtune/problem/value.hpp>

#include "expression/functions.hpp"

namespace spvtune::problem::detail {
namespace {

std::string shorten(std::string text) {
    constexpr std::size_t limit = 40;
    return text.size() > limit ? text.substr(0, limit) + "..." : text;
}

/// The 1-based column of the first whole-word occurrence of `name` in `text`, in characters.
std::size_t column_of(std::string_view text, std::string_view name) {
    const auto word_char = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
    };
    for (std::size_t at = text.find(name); at != std::string_view::npos;
         at = text.find(name, at + 1)) {
        const bool starts = at == 0 || !word_char(text[at - 1]);
        const std::size_t end = at + name.size();
        const bool ends = end == text.size() || !word_char(text[end]);
        if (starts && ends) {
            return 1 +
                   static_cast<std::size_t>(std::count_if(
                       text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at),
                       [](char c) { return (static_cast<unsigned char>(c) & 0xC0U) != 0x80U; }));
        }
    }
    return 1;
}

}  // namespace

bool is_identifier(std::string_view name) {
    if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])) != 0) {
        return false;
    }
    return std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
    });
}

std::string child(const std::string& pointer, std::string_view token) {
    // json_pointer escapes '~' and '/' in the token as RFC 6901 requires.
    return (Json::json_pointer(pointer) / std::string(token)).to_string();
}

std::string child(const std::string& pointer, std::size_t index) {
    return pointer + "/" + std::to_string(index);
}

std::string parent(const std::string& pointer) {
    // Cut at the last '/' rather than parse: a token escapes '/' as "~1", so the last '/' always
    // starts the last token, and cutting cannot throw on a pointer that parsing would refuse.
    const std::size_t last = pointer.rfind('/');
    return last == std::string::npos ? std::string{} : pointer.substr(0, last);
}

std::string describe(const Json& json) {
    switch (json.type()) {
        case Json::value_t::null:
            return "null";
        case Json::value_t::boolean:
            return json.dump() + " (a boolean)";
        case Json::value_t::number_integer:
        case Json::value_t::number_unsigned:
            return json.dump() + " (an integer)";
        case Json::value_t::number_float:
            return json.dump() + " (a number)";
        case Json::value_t::string:
            return shorten(json.dump()) + " (a string)";
        case Json::value_t::array:
            return "an array";
        case Json::value_t::object:
            return "an object";
        default:
            return json.type_name();
    }
}

std::string unknown(std::string_view what, const std::string& name,
                    const std::vector<std::string>& known) {
    std::string message = "unknown " + std::string(what) + " '" + name + "'";
    if (const auto suggestion = did_you_mean(name, known)) {
        message += " (did you mean '" + *suggestion + "'?)";
    }
    return message;
}

void Reader::annotate_under(std::string list_pointer, std::string note) {
    annotated_list_ = std::move(list_pointer);
    annotation_ = std::move(note);
}

void Reader::clear_annotation() {
    annotated_list_.clear();
    annotation_.clear();
}

std::string Reader::annotated(const std::string& pointer, std::string message) const {
    if (!annotated_list_.empty() && pointer.starts_with(annotated_list_ + "/")) {
        message += annotation_;
    }
    return message;
}

void Reader::error(std::string pointer, std::string message, std::string detail) {
    ++reported_;
    if (told_.emplace(pointer, message, detail).second) {
        std::string shown = annotated(pointer, std::move(message));
        diagnostics_.push_back({file_, std::move(pointer), std::move(shown), std::move(detail)});
    }
}

void Reader::error_at_points(Diagnostic diagnostic, const std::string& cause, std::size_t points) {
    ++reported_;
    const auto [known, added] =
        causes_.try_emplace({diagnostic.pointer, cause}, diagnostics_.size());
    if (!added) {
        diagnostics_[known->second].points += points;
        return;
    }
    diagnostic.message = annotated(diagnostic.pointer, std::move(diagnostic.message));
    diagnostic.file = file_;
    diagnostic.points = points;
    diagnostics_.push_back(std::move(diagnostic));
}

bool Reader::is_type(const Json& json, const std::string& pointer, bool ok,
                     std::string_view expected) {
    if (!ok) {
        error(pointer, "expected " + std::string(expected) + ", found " + describe(json));
    }
    return ok;
}

bool Reader::object(const Json& json, const std::string& pointer,
                    std::span<const std::string_view> required,
                    std::span<const std::string_view> optional) {
    if (!is_type(json, pointer, json.is_object(), "an object")) {
        return false;
    }
    std::vector<std::string> known;
    for (std::string_view name : required) {
        known.emplace_back(name);
        if (!json.contains(name)) {
            error(pointer, "missing required field '" + std::string(name) + "'");
        }
    }
    for (std::string_view name : optional) {
        known.emplace_back(name);
    }
    for (const auto& [name, value] : json.items()) {
        if (std::find(known.begin(), known.end(), name) != known.end()) {
            continue;
        }
        error(child(pointer, name),
              unknown("field", name, known) + "; expected one of: " + join(known));
    }
    return true;
}

std::optional<std::string> Reader::string(const Json& json, const std::string& pointer) {
    if (!is_type(json, pointer, json.is_string(), "a string")) {
        return std::nullopt;
    }
    return json.get<std::string>();
}

std::optional<std::string> Reader::path(const Json& json, const std::string& pointer) {
    auto text = string(json, pointer);
    if (text && (text->empty() || text->find('\0') != std::string::npos)) {
        error(pointer, "expected a non-empty path without NUL characters, found " + describe(json));
        return std::nullopt;
    }
    return text;
}

std::optional<bool> Reader::boolean(const Json& json, const std::string& pointer) {
    if (!is_type(json, pointer, json.is_boolean(), "true or false")) {
        return std::nullopt;
    }
    return json.get<bool>();
}

std::optional<std::int64_t> Reader::integer(const Json& json, const std::string& pointer,
                                            std::int64_t min, std::int64_t max) {
    const std::string range =
        min == std::numeric_limits<std::int64_t>::min()
            ? "an integer"
            : "an integer in " + std::to_string(min) + ".." + std::to_string(max);
    if (json.is_number_unsigned() && json.get<std::uint64_t>() > static_cast<std::uint64_t>(max)) {
        error(pointer, "expected " + range + ", found " + describe(json));
        return std::nullopt;
    }
    if (!is_type(json, pointer, json.is_number_integer(), range)) {
        return std::nullopt;
    }
    const auto value = json.get<std::int64_t>();
    if (value < min || value > max) {
        error(pointer, "expected " + range + ", found " + describe(json));
        return std::nullopt;
    }
    return value;
}

std::optional<double> Reader::number(const Json& json, const std::string& pointer, double min) {
    if (!is_type(json, pointer, json.is_number(), "a number")) {
        return std::nullopt;
    }
    const auto value = json.get<double>();
    if (value < min) {
        error(pointer,
              "expected a number >= " + to_string(Value(min)) + ", found " + describe(json));
        return std::nullopt;
    }
    return value;
}

bool Reader::variable_name(std::string_view name, const std::string& pointer,
                           std::string_view what) {
    if (!identifier(name, pointer, what)) {
        return false;
    }
    if (name == "true" || name == "false") {
        error(pointer, "expected " + std::string(what) + " other than '" + std::string(name) +
                           "', which expressions always read as the boolean literal");
        return false;
    }
    if (find_function(name) != nullptr) {
        error(pointer, "expected " + std::string(what) + " other than '" + std::string(name) +
                           "', the name of an expression function");
        return false;
    }
    return true;
}

bool Reader::identifier(std::string_view name, const std::string& pointer, std::string_view what) {
    if (!is_identifier(name)) {
        error(pointer, "expected " + std::string(what) +
                           " to be an identifier ([A-Za-z_][A-Za-z0-9_]*), found '" +
                           std::string(name) + "'");
        return false;
    }
    return true;
}

std::optional<Expression> Reader::expression(const Json& json, const std::string& pointer,
                                             const std::vector<std::string>& variables,
                                             std::string_view scope_note) {
    std::string text;
    if (json.is_string()) {
        text = json.get<std::string>();
    } else if (json.is_number_float()) {
        text = to_string(Value(json.get<double>()));
    } else if (json.is_number_unsigned() &&
               json.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX)) {
        error(pointer, "expected an integer in the int64 range, found " + describe(json));
        return std::nullopt;
    } else if (json.is_number_integer() || json.is_boolean()) {
        text = json.dump();
    } else {
        error(pointer,
              "expected a number, a boolean or an expression string, found " + describe(json));
        return std::nullopt;
    }
    try {
        Expression expression = Expression::parse(text);
        bool ok = true;
        // The device properties are listed apart: every candidate expression may use them.
        std::vector<std::string> listed;
        std::vector<std::string> device;
        for (const std::string& variable : variables) {
            (is_device_variable(variable) ? device : listed).push_back(variable);
        }
        for (const std::string& name : expression.variables()) {
            if (std::find(variables.begin(), variables.end(), name) != variables.end()) {
                continue;
            }
            const bool device_name = name.starts_with("device.");
            std::string message =
                device_name
                    ? unknown("device property", name, device) + "; " +
                          (device.empty()
                               ? std::string(scope_note) + " and none of the device properties"
                               : "the device properties are: " + join(device))
                    : unknown("variable", name, listed) + "; " + std::string(scope_note) +
                          (listed.empty() ? ": none" : ": " + join(listed));
            const ExpressionError located(text, column_of(text, name), name.size(),
                                          "unknown variable");
            error(pointer, "bad expression: " + message, located.render("    "));
            ok = false;
        }
        if (!ok) {
            return std::nullopt;
        }
        return expression;
    } catch (const ExpressionError& bad) {
        error(pointer, "bad expression: " + bad.message(), bad.render("    "));
        return std::nullopt;
    }
}

namespace {

// Far deeper than any problem file needs (a candidate's fields are 5 levels down); deeper is
// hostile or broken, and the parsed value is walked recursively.
constexpr std::size_t max_nesting = 128;

void syntax_error(Reader& reader, std::string_view text, std::size_t offset,
                  const std::string& what) {
    const base::TextPosition at = base::position_in(text, offset);
    reader.error("", "JSON syntax error at line " + std::to_string(at.line) + ", column " +
                         std::to_string(at.column) + ": " + what);
}

}  // namespace

std::optional<Json> parse_json(std::string_view text, Reader& reader) {
    if (const auto fault = base::check_json_text(text, max_nesting)) {
        syntax_error(reader, text, fault->offset, fault->problem);
        return std::nullopt;
    }
    base::JsonPathTracker path;
    const std::size_t errors_before = reader.error_count();
    // nlohmann keeps the last of two members with one name; a file that says two things
    // there is wrong, so each repeat is reported at its pointer.
    const auto track = [&](int, Json::parse_event_t event, Json& parsed) {
        if (!path.follow(event, parsed)) {
            reader.error(path.pointer(), "duplicate key '" + parsed.get<std::string>() +
                                             "'; expected each member name once");
        }
        return true;
    };
    try {
        Json json = Json::parse(text, track);
        if (reader.error_count() != errors_before) {
            return std::nullopt;
        }
        return json;
    } catch (const Json::parse_error& bad) {
        // nlohmann reports a byte offset (1-based, of the last byte read); editors want lines.
        std::string what = bad.what();
        // Drop "[json.exception.parse_error.101] parse error at line 1, column 2: ".
        if (const auto colon = what.find(": "); colon != std::string::npos) {
            what = what.substr(colon + 2);
        }
        syntax_error(reader, text, bad.byte == 0 ? 0 : bad.byte - 1, what);
        return std::nullopt;
    }
}

}  // namespace spvtune::problem::detail
