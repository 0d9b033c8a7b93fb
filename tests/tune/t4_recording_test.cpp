#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <spvtune/tune/recording.hpp>
#include <spvtune/tune/replay.hpp>

// The T4 results format (the autotuning community's exchange format, as Kernel Tuner writes
// it) read as a recording, written from one, and replayed.

namespace t4_recording_test {

using namespace spvtune::tune;

namespace {

/// Five results of a 3x2 space in the order a search measured them (so the values of `tile`
/// first appear out of order): one compile failure, one wrong output, one pruned by a
/// constraint, one with only a `time` measurement in microseconds, and the fastest with three
/// runtimes.
nlohmann::json searched_results() {
    return nlohmann::json::parse(R"({
      "schema_version": "1.0.0",
      "results": [
        {"timestamp": "2026-11-30 10:00:00", "configuration": {"tile": 16, "layout": "row"},
         "times": {"compilation": 0.2, "runtimes": [2.0, 2.2, 2.4]}, "invalidity": "correct",
         "correctness": 1, "measurements": [{"name": "time", "value": 2.2, "unit": "ms"}],
         "objectives": ["time"]},
        {"configuration": {"tile": 4, "layout": "row"}, "times": {}, "invalidity": "compile",
         "correctness": 1, "measurements": []},
        {"configuration": {"tile": 8, "layout": "col"}, "times": {"runtimes": [1.1]},
         "invalidity": "correct", "correctness": 0},
        {"configuration": {"tile": 4, "layout": "col"}, "times": {}, "invalidity": "constraints",
         "correctness": 1},
        {"configuration": {"tile": 8, "layout": "row"}, "times": {"runtimes": []},
         "invalidity": "correct", "correctness": 1,
         "measurements": [{"name": "registers", "value": 40, "unit": ""},
                          {"name": "time", "value": 1500, "unit": "us"}]}
      ]})");
}

const RecordedPoint& named(const Recording& recording, const std::string& name) {
    const auto it = std::find_if(recording.points.begin(), recording.points.end(),
                                 [&](const RecordedPoint& p) { return p.name == name; });
    REQUIRE(it != recording.points.end());
    return *it;
}

std::string error_of(const nlohmann::json& json) {
    try {
        read_recording(json, "t4.json");
    } catch (const std::runtime_error& error) {
        return error.what();
    }
    return "no error";
}

}  // namespace

TEST_CASE("a T4 results file reads as the grid its configurations use, their times and failures") {
    const Recording recording = read_recording(searched_results(), "t4.json");
    REQUIRE(recording.parameters.size() == 2);
    // Parameters in name order; a number's levels ascend whatever order they were met in.
    CHECK(recording.parameters[0].name == "layout");
    CHECK(recording.parameters[0].values == std::vector<nlohmann::json>{"col", "row"});
    CHECK(recording.parameters[1].name == "tile");
    CHECK(recording.parameters[1].values == std::vector<nlohmann::json>{4, 8, 16});
    REQUIRE(recording.points.size() == 5);

    const RecordedPoint& fastest = named(recording, "recording[layout=row,tile=16]");
    CHECK(fastest.levels == std::vector<std::size_t>{1, 2});
    CHECK(fastest.times_ns == std::vector<double>{2.0e6, 2.2e6, 2.4e6});
    CHECK(fastest.error.empty());
    // Without runtimes, the `time` measurement in its own unit.
    CHECK(named(recording, "recording[layout=row,tile=8]").times_ns == std::vector<double>{1.5e6});
    CHECK(named(recording, "recording[layout=row,tile=4]").invalidity == "compile");
    CHECK(named(recording, "recording[layout=col,tile=4]").invalidity == "constraints");
    // `correct` but a correctness below 1 is a wrong output: it never counts as measured.
    const RecordedPoint& wrong = named(recording, "recording[layout=col,tile=8]");
    CHECK(wrong.invalidity == "correctness");
    CHECK(wrong.times_ns.empty());

    // The replay takes the fastest correct point, and the wrong output's 1.1 ms is no winner.
    const SearchOutcome outcome = replay_search(recording, {}, SamplingSettings{});
    REQUIRE_FALSE(outcome.benchmark.ranking.empty());
    CHECK(outcome.benchmark.ranking.front().name == "recording[layout=row,tile=8]");
    CHECK(outcome.benchmark.failures.size() == 3);
}

TEST_CASE("a failure Kernel Tuner's converter writes where the time would be fails that point") {
    // convert_cache_to_t4 keeps a failure other than its usual three as `correct`, with the
    // failure's name as the `time` measurement's value and no runtimes.
    nlohmann::json json = searched_results();
    json["results"].push_back(nlohmann::json::parse(R"(
        {"timestamp": "2024-01-01 00:00:00+00:00", "configuration": {"tile": 16, "layout": "col"},
         "times": {"compilation_time": 1.0}, "invalidity": "correct", "correctness": 1,
         "measurements": [{"name": "time", "value": "ErrorConfig", "unit": ""}]})"));
    const Recording recording = read_recording(json, "t4.json");
    REQUIRE(recording.points.size() == 6);
    const RecordedPoint& failed = named(recording, "recording[layout=col,tile=16]");
    CHECK(failed.error == "ErrorConfig");
    CHECK(failed.invalidity == "runtime");
    CHECK(failed.times_ns.empty());
    CHECK(failed.timestamp == "2024-01-01 00:00:00+00:00");
    // A failure is no time: a correct result whose time is a number still reads as one.
    CHECK(named(recording, "recording[layout=row,tile=16]").times_ns.size() == 3);
}

TEST_CASE("a recording written as T4 reads back the same points, failures in T4's words") {
    const nlohmann::json kernel_tuner = nlohmann::json::parse(R"({
      "kernel_name": "conv",
      "tune_params_keys": ["bx", "by"],
      "tune_params": {"bx": [1, 2], "by": [8, 16]},
      "cache": {
        "1,8": {"bx": 1, "by": 8, "time": 3.0, "times": [2.0, 3.0, 4.0]},
        "1,16": {"bx": 1, "by": 16, "time": "CompilationFailedConfig"},
        "2,8": {"bx": 2, "by": 8, "time": "InvalidConfig"},
        "2,16": {"bx": 2, "by": 16, "time": "RuntimeFailedConfig"}
      }})");
    const Recording recording = read_recording(kernel_tuner, "conv.json");
    const nlohmann::json written = t4_results(recording);
    CHECK(written["schema_version"] == "1.0.0");
    REQUIRE(written["results"].size() == 4);
    for (const nlohmann::json& result : written["results"]) {
        // What the T4 schema requires of every result.
        for (const char* member : {"configuration", "times", "invalidity", "correctness"}) {
            CHECK(result.contains(member));
        }
    }

    const Recording again = read_recording(written, "again.json");
    REQUIRE(again.points.size() == recording.points.size());
    std::vector<std::string> invalidities;
    for (const RecordedPoint& point : recording.points) {
        const std::string name = "recording" + point.name.substr(point.name.find('['));
        const RecordedPoint& back = named(again, name);
        CHECK(back.levels == point.levels);
        CHECK(back.times_ns == point.times_ns);
        CHECK(back.invalidity == point.invalidity);
        invalidities.push_back(back.invalidity);
    }
    std::sort(invalidities.begin(), invalidities.end());
    CHECK(invalidities == std::vector<std::string>{"", "compile", "constraints", "runtime"});
}

TEST_CASE("a malformed T4 results file is refused at the place of the fault") {
    nlohmann::json unknown = searched_results();
    unknown["results"][1]["invalidity"] = "broken";
    CHECK(error_of(unknown) ==
          "t4.json: /results/1/invalidity: expected one of correct, "
          "compile, runtime, timeout, correctness, constraints, got "
          "\"broken\"");

    nlohmann::json missing = searched_results();
    missing["results"][3]["configuration"].erase("layout");
    CHECK(error_of(missing) ==
          "t4.json: /results/3/configuration: expected a member \"layout\" (its value)");

    nlohmann::json extra = searched_results();
    extra["results"][2]["configuration"]["unroll"] = 2;
    CHECK(error_of(extra) ==
          "t4.json: /results/2/configuration/unroll: \"unroll\" is not a "
          "parameter of /results/0/configuration");

    nlohmann::json twice = searched_results();
    twice["results"][4]["configuration"]["tile"] = 16;
    CHECK(error_of(twice) ==
          "t4.json: /results/4/configuration: the same configuration as /results/0");

    nlohmann::json untimed = searched_results();
    untimed["results"][4]["measurements"].erase(1);
    CHECK(error_of(untimed) ==
          "t4.json: /results/4: expected the run times of a correct "
          "result: times.runtimes (milliseconds) or a measurement named "
          "\"time\"");

    nlohmann::json negative = searched_results();
    negative["results"][0]["times"]["runtimes"][1] = -2.0;
    CHECK(error_of(negative) ==
          "t4.json: /results/0/times/runtimes/1: expected a positive time "
          "in milliseconds, got -2.0");

    nlohmann::json furlongs = searched_results();
    furlongs["results"][4]["measurements"][1]["unit"] = "fortnights";
    CHECK(error_of(furlongs) ==
          "t4.json: /results/4/measurements/1/unit: expected one of the units s, ms, us, ns");

    nlohmann::json future = searched_results();
    future["schema_version"] = "2.0.0";
    CHECK(error_of(future) ==
          "t4.json: /schema_version: expected a T4 schema version 1.x.y, got \"2.0.0\"");

    nlohmann::json empty = searched_results();
    empty["results"] = nlohmann::json::array();
    CHECK(error_of(empty) == "t4.json: /results: expected at least one result");

    nlohmann::json nested = searched_results();
    nested["results"][0]["configuration"]["tile"] = nlohmann::json::array({16});
    CHECK(error_of(nested) ==
          "t4.json: /results/0/configuration/tile: expected a number, a string or a boolean");

    // Two values that a point's name writes alike would name two points alike.
    nlohmann::json spelt_alike = searched_results();
    spelt_alike["results"][3]["configuration"]["tile"] = "16";
    CHECK(error_of(spelt_alike) ==
          "t4.json: /results/3/configuration/tile: value \"16\" and 16 (at "
          "/results/0/configuration/tile) are both written 16 in a point's name; expected "
          "distinct values");

    RecordingSelection family;
    family.family = "mm";
    CHECK_THROWS_WITH(read_recording(searched_results(), "t4.json", family),
                      "t4.json: /: a T4 results file holds one space: a family or key is chosen "
                      "only in a tune --json report");
}

}  // namespace t4_recording_test
