#pragma once

// What nlohmann's JSON parser lets through or reports badly, checked on the text itself, so a
// problem file and a cache file refuse it alike with a line and column: a NUL byte (binary
// data, or bytes hidden after one), nesting deeper than a bound (the parsed value is freed and
// printed recursively), a number beyond a double's range (nlohmann throws out_of_range without
// a position), and a member name given twice in one object (nlohmann keeps the last).

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace spvtune::base {

/// A fault in JSON text: the byte offset where it starts and what is wrong.
struct JsonTextFault {
    std::size_t offset = 0;
    std::string problem;
};

/// The first NUL byte, bracket past `max_depth` levels, or number that overflows a double in
/// `text`, outside and inside strings alike for NUL, outside strings for the others.
std::optional<JsonTextFault> check_json_text(std::string_view text, std::size_t max_depth);

/// 1-based line and column (in characters of UTF-8 text) of byte `offset`.
struct TextPosition {
    std::size_t line = 1;
    std::size_t column = 1;
};
TextPosition position_in(std::string_view text, std::size_t offset);

/// Follows the events of a parse (nlohmann's callback events, spelled out so this header needs
/// no JSON library) to know the JSON pointer of the value being read and to catch a member
/// name that repeats within its object.
class JsonPathTracker {
  public:
    void start_container(bool object);
    void end_container();
    /// A scalar value ended (a container's end counts through end_container).
    void end_value();
    /// A member name in the innermost object; false when that object already has it.
    bool key(const std::string& name);
    /// The JSON pointer (RFC 6901) of the member or element being read.
    std::string pointer() const;

    /// Follows one event of nlohmann's parser callback (any basic_json); false when it is a
    /// member name the innermost object already has.
    template <class Json>
    bool follow(typename Json::parse_event_t event, const Json& parsed) {
        using Event = typename Json::parse_event_t;
        switch (event) {
            case Event::object_start:
            case Event::array_start:
                start_container(event == Event::object_start);
                return true;
            case Event::object_end:
            case Event::array_end:
                end_container();
                return true;
            case Event::key:
                return key(parsed.template get<std::string>());
            case Event::value:
                end_value();
                return true;
        }
        return true;
    }

  private:
    struct Frame {
        bool object = false;
        std::unordered_set<std::string> keys;
        std::string key;
        std::size_t index = 0;
    };
    void element_done();
    std::vector<Frame> frames_;
};

}  // namespace spvtune::base
