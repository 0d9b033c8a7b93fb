#pragma once

// Walks the JSON of a problem description, checking shapes and types and collecting a
// Diagnostic (file, JSON pointer, found vs expected) for each fault instead of stopping at the
// first.

#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <spvtune/base/enum_names.hpp>
#include <spvtune/base/name_list.hpp>
#include <spvtune/problem/diagnostic.hpp>
#include <spvtune/problem/expression.hpp>

namespace spvtune::problem::detail {

// Ordered, so grid axes and candidates keep the order the file writes them in.
using Json = nlohmann::ordered_json;

/// `pointer` extended by one reference token, escaped per RFC 6901.
std::string child(const std::string& pointer, std::string_view token);
std::string child(const std::string& pointer, std::size_t index);

/// `pointer` without its last reference token: where the value it points into is (the root's
/// parent is the root).
std::string parent(const std::string& pointer);

/// What a value is, for "found ..." messages: `true (a boolean)`, `"abc" (a string)`, `an array`.
std::string describe(const Json& json);

using base::join;
using base::join_some;

/// "unknown <what> '<name>'", plus " (did you mean '<close>'?)" when one of `known` is close.
std::string unknown(std::string_view what, const std::string& name,
                    const std::vector<std::string>& known);

class Reader {
  public:
    explicit Reader(std::filesystem::path file) : file_(std::move(file)) {}

    const std::filesystem::path& file() const noexcept { return file_; }

    void error(std::string pointer, std::string message, std::string detail = {});
    /// Reports `diagnostic`, found at `points` grid points, once per distinct `cause` at its
    /// pointer: a later report of the same cause only adds its points to the first one.
    void error_at_points(Diagnostic diagnostic, const std::string& cause, std::size_t points);
    /// While a candidate reads the variants another candidate lists (`"variants": "NAME"`), its
    /// reports under that list end with `note` (which candidate found the fault): the list is
    /// right for its owner, so a fault only the sharer runs into needs the sharer named. A
    /// fault the owner reports too is still told once, as the owner found it.
    void annotate_under(std::string list_pointer, std::string note);
    void clear_annotation();
    /// Every error reported so far, a repeat of one already told included: callers compare it
    /// before and after a call to learn whether the call found a fault.
    std::size_t error_count() const noexcept { return reported_; }
    const std::vector<Diagnostic>& diagnostics() const noexcept { return diagnostics_; }

    /// Checks that `json` is an object with every `required` field and no field outside
    /// `required` and `optional` (unknown fields get a "did you mean"). False when it is not an
    /// object; missing and unknown fields are reported but do not make it false.
    bool object(const Json& json, const std::string& pointer,
                std::initializer_list<std::string_view> required,
                std::initializer_list<std::string_view> optional) {
        return object(json, pointer, std::span(required.begin(), required.size()),
                      std::span(optional.begin(), optional.size()));
    }
    bool object(const Json& json, const std::string& pointer,
                std::span<const std::string_view> required,
                std::span<const std::string_view> optional);

    bool is_type(const Json& json, const std::string& pointer, bool ok, std::string_view expected);

    std::optional<std::string> string(const Json& json, const std::string& pointer);
    /// A string naming a file or directory: not empty and without a NUL character (the system
    /// would read "a.spv\u0000.txt" as "a.spv").
    std::optional<std::string> path(const Json& json, const std::string& pointer);
    /// A string that spells one of `choices`, as its value. The spellings are the enum's
    /// NLOHMANN_JSON_SERIALIZE_ENUM ones, so the file format has one list of them.
    template <class T>
    std::optional<T> choice(const Json& json, const std::string& pointer,
                            std::initializer_list<T> choices) {
        static_assert(base::JsonSpelled<T, Json>,
                      "declare NLOHMANN_JSON_SERIALIZE_ENUM next to the enum");
        const auto name = string(json, pointer);
        std::string expected;
        std::size_t left = choices.size();
        for (const T value : choices) {
            const std::string spelling = Json(value).template get<std::string>();
            if (name && *name == spelling) {
                return value;
            }
            --left;
            expected += "\"" + spelling + "\"" + (left > 1 ? ", " : left == 1 ? " or " : "");
        }
        if (name) {
            error(pointer, "expected " + expected + ", found " + describe(json));
        }
        return std::nullopt;
    }
    std::optional<bool> boolean(const Json& json, const std::string& pointer);
    /// A JSON integer (not 2.0) in [min, max].
    std::optional<std::int64_t> integer(
        const Json& json, const std::string& pointer,
        std::int64_t min = std::numeric_limits<std::int64_t>::min(),
        std::int64_t max = std::numeric_limits<std::int64_t>::max());
    /// Any JSON number, at least `min`.
    std::optional<double> number(const Json& json, const std::string& pointer,
                                 double min = -std::numeric_limits<double>::infinity());
    /// An identifier `[A-Za-z_][A-Za-z0-9_]*` (`what` names it in the message).
    bool identifier(std::string_view name, const std::string& pointer, std::string_view what);
    /// An identifier expressions can name as a variable: not `true` or `false` (always the
    /// literals) and not a function's name (`min`), which would read as two things.
    bool variable_name(std::string_view name, const std::string& pointer, std::string_view what);

    /// A number, boolean or expression string, parsed; every variable it uses must be one of
    /// `variables` (`scope_note` says which names are allowed there, for the message).
    std::optional<Expression> expression(const Json& json, const std::string& pointer,
                                         const std::vector<std::string>& variables,
                                         std::string_view scope_note);

  private:
    /// `message` with the annotation when `pointer` lies under the annotated list.
    std::string annotated(const std::string& pointer, std::string message) const;

    std::filesystem::path file_;
    std::string annotated_list_;
    std::string annotation_;
    /// (pointer, cause) -> index in diagnostics_, for error_at_points.
    std::map<std::pair<std::string, std::string>, std::size_t> causes_;
    /// Pointer, message and detail of each error() told: variants shared by two candidates are
    /// read twice, and a fault written once is told once.
    std::set<std::tuple<std::string, std::string, std::string>> told_;
    std::size_t reported_ = 0;
    std::vector<Diagnostic> diagnostics_;
};

/// Reader::annotate_under for its lifetime.
class ReaderAnnotation {
  public:
    ReaderAnnotation(Reader& reader, std::string list_pointer, std::string note) : reader_(reader) {
        reader_.annotate_under(std::move(list_pointer), std::move(note));
    }
    ~ReaderAnnotation() { reader_.clear_annotation(); }
    ReaderAnnotation(const ReaderAnnotation&) = delete;
    ReaderAnnotation& operator=(const ReaderAnnotation&) = delete;

  private:
    Reader& reader_;
};

/// `[A-Za-z_][A-Za-z0-9_]*`.
bool is_identifier(std::string_view name);

/// Parses `text` as JSON; a syntax error becomes a diagnostic with its line and column.
std::optional<Json> parse_json(std::string_view text, Reader& reader);

}  // namespace spvtune::problem::detail
