#include <optional>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <spvtune/tune/recording.hpp>

// A Kernel Tuner cache file left open by a stopped run (Kernel Tuner writes the header, then an
// entry a line, and closes the file when tuning ends): closed after its last complete entry, and
// read as the entries it holds; anything else is not taken for one.

namespace recording_text_test {

using namespace spvtune::tune;

namespace {

const std::vector<std::string> entries{
    R"("16,1": {"bx": 16, "by": 1, "time": 3.9, "times": [3.8, 3.9, 4.0]})",
    R"("16,2": {"bx": 16, "by": 2, "time": 4.6})",
    R"("32,1": {"bx": 32, "by": 1, "time": "RuntimeFailedConfig"})",
    R"("32,2": {"bx": 32, "by": 2, "time": 2.7})",
};

/// The file as Kernel Tuner has it after writing the first `written` entries, each line ending
/// with a comma.
std::string open_file(std::size_t written) {
    std::string text = R"({
"schema_version": "1.0.0",
"device_name": "Testing",
"kernel_name": "tile",
"tune_params_keys": ["bx", "by"],
"tune_params": {"bx": [16, 32], "by": [1, 2]},
"objective": "time",
"cache": {
)";
    for (std::size_t e = 0; e < written; ++e) {
        text += entries[e] + ",\n";
    }
    return text;
}

/// The cache `text` holds read closed; nullopt when it is no unfinished cache (parse_recording_text
/// throws the text's own parse error).
std::optional<RecordingText> close_unfinished_kernel_tuner_cache(const std::string& text) {
    try {
        RecordingText parsed = parse_recording_text(text);
        REQUIRE(parsed.unfinished);
        return parsed;
    } catch (const nlohmann::json::parse_error&) {
        return std::nullopt;
    }
}

std::vector<std::string> point_names(const nlohmann::json& json) {
    std::vector<std::string> names;
    for (const RecordedPoint& point : read_recording(json, "c.json").points) {
        names.push_back(point.name);
    }
    return names;
}

}  // namespace

TEST_CASE("an open cache is closed after its last entry, with or without the comma after it") {
    const std::string open = open_file(3);
    REQUIRE_FALSE(nlohmann::json::accept(open));
    const std::optional<RecordingText> closed = close_unfinished_kernel_tuner_cache(open);
    REQUIRE(closed.has_value());
    CHECK(closed->dropped_bytes == 0);
    CHECK(point_names(closed->json) ==
          std::vector<std::string>{"tile[bx=16,by=1]", "tile[bx=16,by=2]", "tile[bx=32,by=1]"});
    const Recording recording = read_recording(closed->json, "c.json");
    CHECK(recording.points[0].times_ns == std::vector<double>{3.8e6, 3.9e6, 4.0e6});
    CHECK(recording.points[2].error == "RuntimeFailedConfig");

    std::string no_comma = open;
    no_comma.erase(no_comma.rfind(','), 1);
    const std::optional<RecordingText> also =
        close_unfinished_kernel_tuner_cache(no_comma + "\n  ");
    REQUIRE(also.has_value());
    CHECK(point_names(also->json) == point_names(closed->json));
}

TEST_CASE("an entry the stop cut off is left out, and how much of it is said") {
    const std::string whole = open_file(2);
    const std::string part = entries[2].substr(0, 31);
    const std::optional<RecordingText> closed = close_unfinished_kernel_tuner_cache(whole + part);
    REQUIRE(closed.has_value());
    CHECK(closed->dropped_bytes == part.size());
    CHECK(point_names(closed->json) ==
          std::vector<std::string>{"tile[bx=16,by=1]", "tile[bx=16,by=2]"});
}

TEST_CASE("a stop between the cache's closing brace and the file's keeps every entry") {
    std::string text = open_file(4);
    text.erase(text.rfind(','));
    text += "}";
    const std::optional<RecordingText> closed = close_unfinished_kernel_tuner_cache(text + "\n");
    REQUIRE(closed.has_value());
    CHECK(closed->dropped_bytes == 0);
    CHECK(point_names(closed->json).size() == 4);
}

TEST_CASE("a last line damaged, not cut, is no entry a stop cut off") {
    // The parse fails before the text's end: Kernel Tuner would refuse these too.
    const std::string open = open_file(3);
    CHECK_FALSE(close_unfinished_kernel_tuner_cache(open + "this is not json {{{\n").has_value());
    CHECK_FALSE(close_unfinished_kernel_tuner_cache(open + R"("32,2": {"bx": 32, "time": oops})")
                    .has_value());
    CHECK_FALSE(close_unfinished_kernel_tuner_cache(open + ",\n").has_value());
}

TEST_CASE("text that closing does not make a cache is not taken for an unfinished one") {
    // Cut in the header, before the cache began.
    const std::string open = open_file(2);
    CHECK_FALSE(close_unfinished_kernel_tuner_cache(open.substr(0, 60)).has_value());
    // A finished file damaged in the middle: closing its end cannot mend it.
    std::string damaged = open_file(4);
    damaged.replace(damaged.find("4.6"), 3, "4.6 oops");
    CHECK_FALSE(close_unfinished_kernel_tuner_cache(damaged + "}\n}\n").has_value());
    // Damage before the last line is not a cut-off entry either.
    std::string early = open_file(3);
    early.replace(early.find("\"16,2\""), 6, "\"16,2");
    CHECK_FALSE(close_unfinished_kernel_tuner_cache(early).has_value());
    // A truncated tune report, or other JSON that names no cache.
    CHECK_FALSE(
        close_unfinished_kernel_tuner_cache(R"({"schema_version": 1, "problems": [)").has_value());
    CHECK_FALSE(close_unfinished_kernel_tuner_cache(R"({"tune_params": {"a": [1]}, "cache": [1, 2)")
                    .has_value());
}

TEST_CASE("a recording that parses is read as it is") {
    const RecordingText parsed = parse_recording_text(open_file(2) + "\"32,2\": {\"bx\": 32}}}");
    CHECK_FALSE(parsed.unfinished);
    CHECK(parsed.json["cache"].size() == 3);
}

}  // namespace recording_text_test
