// A recording written as a Kernel Tuner cache file is one Kernel Tuner can use: each
// configuration under the key it looks configurations up by, and every member its cache schema
// (1.0.0) requires.
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <spvtune/tune/recording.hpp>

namespace kernel_tuner_export_test {

using namespace spvtune::tune;

namespace {

/// Values of every kind Kernel Tuner's own caches hold: integers, floats, strings and booleans.
nlohmann::json mixed_cache() {
    return nlohmann::json::parse(R"({
      "device_name": "NVIDIA RTX A4000",
      "kernel_name": "mixed",
      "problem_size": [4096, 2048],
      "tune_params_keys": ["block", "alg", "unroll", "scale"],
      "tune_params": {"block": [128, 256], "alg": ["alg_1", "alg_2"], "unroll": [false, true],
                      "scale": [1.0, 2.45]},
      "cache": {
        "128,alg_2,True,2.45": {"block": 128, "alg": "alg_2", "unroll": true, "scale": 2.45,
                                "time": 1.5, "times": [1.0, 2.0],
                                "timestamp": "2023-05-18 08:28:28.913896+00:00"},
        "256,alg_1,False,1.0": {"block": 256, "alg": "alg_1", "unroll": false, "scale": 1.0,
                                "time": "CompilationFailedConfig"}
      }})");
}

}  // namespace

TEST_CASE("configurations are written under the keys Kernel Tuner spells, as Python does") {
    const nlohmann::json written =
        kernel_tuner_cache(read_recording(mixed_cache(), "mixed.json"), "2026-12-05T00:00:00Z");
    const nlohmann::json& cache = written["cache"];
    REQUIRE(cache.size() == 2);
    REQUIRE(cache.contains("128,alg_2,True,2.45"));
    REQUIRE(cache.contains("256,alg_1,False,1.0"));
    CHECK(cache["128,alg_2,True,2.45"]["unroll"] == true);
    CHECK(cache["256,alg_1,False,1.0"]["time"] == "CompilationFailedConfig");
}

TEST_CASE("the written file has every member Kernel Tuner's cache schema requires") {
    const nlohmann::json written =
        kernel_tuner_cache(read_recording(mixed_cache(), "mixed.json"), "2026-12-05T00:00:00Z");
    CHECK(written["schema_version"] == "1.0.0");
    CHECK(written["device_name"] == "NVIDIA RTX A4000");
    CHECK(written["kernel_name"] == "mixed");
    CHECK(written["problem_size"] == nlohmann::json{4096, 2048});
    CHECK(written["objective"] == "time");
    for (const auto& [key, entry] : written["cache"].items()) {
        CAPTURE(key);
        for (const char* timing : {"compile_time", "verification_time", "benchmark_time",
                                   "strategy_time", "framework_time"}) {
            CAPTURE(timing);
            CHECK(entry[timing].is_number());
        }
        CHECK(entry["timestamp"].is_string());
    }
    const nlohmann::json& ran = written["cache"]["128,alg_2,True,2.45"];
    CHECK(ran["benchmark_time"] == doctest::Approx(3.0));  // the recorded times, summed
    CHECK(ran["compile_time"] == 0);
    // A point's own timestamp is kept; one the recording does not date gets the writing time.
    CHECK(ran["timestamp"] == "2023-05-18 08:28:28.913896+00:00");
    CHECK(written["cache"]["256,alg_1,False,1.0"]["timestamp"] == "2026-12-05T00:00:00Z");
}

TEST_CASE("float values are spelt as Python's repr() spells them, not as JSON does") {
    // The spellings Python 3 gives (repr(1e15) == '1000000000000000.0', repr(1e16) == '1e+16').
    const std::vector<std::pair<double, std::string>> spellings = {
        {1e15, "1000000000000000.0"},
        {2213804141.56092, "2213804141.56092"},
        {1e16, "1e+16"},
        {1.2345678901234568e17, "1.2345678901234568e+17"},
        {1.5e300, "1.5e+300"},
        {1e-05, "1e-05"},
        {0.0001, "0.0001"},
        {-0.0, "-0.0"},
        {100.0, "100.0"},
        {0.5, "0.5"}};
    nlohmann::json json{{"kernel_name", "floats"},
                        {"tune_params_keys", {"x"}},
                        {"tune_params", {{"x", nlohmann::json::array()}}},
                        {"cache", nlohmann::json::object()}};
    for (std::size_t i = 0; i < spellings.size(); ++i) {
        json["tune_params"]["x"].push_back(spellings[i].first);
        json["cache"]["k" + std::to_string(i)] = {{"x", spellings[i].first}, {"time", 1.0 + i}};
    }
    const nlohmann::json written =
        kernel_tuner_cache(read_recording(json, "floats.json"), "2026-12-05T00:00:00Z");
    for (const auto& [value, spelt] : spellings) {
        CAPTURE(spelt);
        REQUIRE(written["cache"].contains(spelt));
        CHECK(written["cache"][spelt]["x"].get<double>() == value);
    }
}

TEST_CASE("a failure is written as one of the three names Kernel Tuner reads back") {
    Recording recording;
    recording.name = "k";
    recording.parameters = {{"x", {1, 2, 3, 4, 5}}};
    const auto point = [](std::size_t level, std::string error, std::string invalidity) {
        RecordedPoint p;
        p.name = "k[x=" + std::to_string(level + 1) + "]";
        p.levels = {level};
        p.error = std::move(error);
        p.invalidity = std::move(invalidity);
        return p;
    };
    recording.points = {
        point(0, "pipeline: too many invocations", "compile"),
        point(1, "outputs differ at y[3]", "correctness"), point(2, "InvalidConfig", "constraints"),
        point(3, "constraints", "constraints"), point(4, "timed out after 2 s", "timeout")};
    const nlohmann::json cache = kernel_tuner_cache(recording, "2026-12-05T00:00:00Z")["cache"];
    CHECK(cache["1"]["time"] == "CompilationFailedConfig");
    CHECK(cache["2"]["time"] == "RuntimeFailedConfig");
    CHECK(cache["3"]["time"] == "InvalidConfig");
    CHECK(cache["4"]["time"] == "InvalidConfig");
    CHECK(cache["5"]["time"] == "RuntimeFailedConfig");
}

TEST_CASE("a problem size is written only where the recording gave one, as it was written") {
    nlohmann::json json = mixed_cache();
    json["problem_size"] = "callable";  // Kernel Tuner writes a callable's name
    CHECK(kernel_tuner_cache(read_recording(json, "mixed.json"),
                             "2026-12-05T00:00:00Z")["problem_size"] == "callable");
    json.erase("problem_size");
    // Kernel Tuner refuses a cache whose size differs from the one it tunes: none is no guess.
    CHECK_FALSE(kernel_tuner_cache(read_recording(json, "mixed.json"), "2026-12-05T00:00:00Z")
                    .contains("problem_size"));
}

TEST_CASE("metadata of the wrong type is passed over, not a reason to refuse the recording") {
    nlohmann::json json = mixed_cache();
    json["device_name"] = nullptr;
    json["cache"]["128,alg_2,True,2.45"]["timestamp"] = 1700000000;
    const Recording recording = read_recording(json, "mixed.json");
    CHECK(recording.device.empty());
    CHECK(recording.points.size() == 2);
    CHECK(kernel_tuner_cache(recording,
                             "2026-12-05T00:00:00Z")["cache"]["128,alg_2,True,2.45"]["timestamp"] ==
          "2026-12-05T00:00:00Z");
}

TEST_CASE("a tune report's device and tuning time go into the written file") {
    const nlohmann::json report = nlohmann::json::parse(R"json({
      "device": {"device_name": "llvmpipe (LLVM 15.0.6, 256 bits)"},
      "problems": [{
        "families": [{"name": "mm", "grid": [{"parameter": "T", "values": [4, 8]}]}],
        "keys": [{"key": {"n": 4096, "m": 128}, "tuned_at": "2026-12-01T10:00:00Z",
                  "candidates": [
          {"name": "mm[T=4]", "family": "mm", "point": {"T": 4}, "status": "ok",
           "samples_ns": [200.0, 220.0]},
          {"name": "mm[T=8]", "family": "mm", "point": {"T": 8}, "status": "winner",
           "samples_ns": [100.0]}]}]}]})json");
    const Recording recording = read_recording(report, "run.json");
    CHECK(recording.device == "llvmpipe (LLVM 15.0.6, 256 bits)");
    CHECK(recording.recorded_at == "2026-12-01T10:00:00Z");
    const nlohmann::json written = kernel_tuner_cache(recording, "2026-12-05T00:00:00Z");
    CHECK(written["device_name"] == "llvmpipe (LLVM 15.0.6, 256 bits)");
    CHECK(written["cache"]["8"]["timestamp"] == "2026-12-01T10:00:00Z");
    // A key's values are no problem size Kernel Tuner would recognise.
    CHECK_FALSE(written.contains("problem_size"));
}

TEST_CASE("two configurations that Kernel Tuner would file under one key are refused") {
    // A string "True" and a boolean true are both `True` to Python's str().
    nlohmann::json json = mixed_cache();
    json["tune_params"]["unroll"] = {"True", true, false};
    json["cache"]["128,alg_2,True,2.45"]["unroll"] = "True";
    json["cache"]["128,alg_2,true,2.45"] = json["cache"]["128,alg_2,True,2.45"];
    json["cache"]["128,alg_2,true,2.45"]["unroll"] = true;
    const Recording recording = read_recording(json, "clash.json");
    REQUIRE(recording.points.size() == 3);
    try {
        kernel_tuner_cache(recording, "2026-12-05T00:00:00Z");
        FAIL("two points under one key were written");
    } catch (const std::runtime_error& error) {
        const std::string what = error.what();
        CHECK(what.find("would share the key \"128,alg_2,True,2.45\"") != std::string::npos);
        CHECK(what.find("unroll=True") != std::string::npos);
        CHECK(what.find("unroll=true") != std::string::npos);
    }
}

}  // namespace kernel_tuner_export_test
