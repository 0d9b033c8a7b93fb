// A recording written as a Kernel Tuner cache file is one Kernel Tuner can use: each
// configuration under the key it looks configurations up by, and every member its cache schema
// (1.0.0) requires.
#include <stdexcept>
#include <string>

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
