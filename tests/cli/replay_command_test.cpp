// `spvtune replay`: a search over a recorded space from the command line, its --json report in
// tune's shape, its Kernel Tuner export, and clear errors for a damaged recording.
#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "cache/temp_directory.hpp"
#include "cli/gzip_bytes.hpp"
#include "cli/spvtune_run.hpp"

namespace replay_command_test {

using namespace spvtune::test;
using spvtune::tune::testing::read_bytes;
using spvtune::tune::testing::TempDirectory;
using spvtune::tune::testing::write_bytes;

namespace {

/// A 4x3 Kernel Tuner space: (16,2) fastest, (8,4) a compile failure, (32,4) never recorded.
nlohmann::json space() {
    nlohmann::json json{{"kernel_name", "k"},
                        {"tune_params_keys", {"bx", "by"}},
                        {"tune_params", {{"bx", {4, 8, 16, 32}}, {"by", {1, 2, 4}}}},
                        {"cache", nlohmann::json::object()}};
    for (const int bx : {4, 8, 16, 32}) {
        for (const int by : {1, 2, 4}) {
            if (bx == 32 && by == 4) {
                continue;
            }
            nlohmann::json entry{{"bx", bx}, {"by", by}};
            if (bx == 8 && by == 4) {
                entry["time"] = "CompilationFailedConfig";
            } else {
                const double ms = bx == 16 && by == 2 ? 1.0 : 2.0 + 0.1 * bx + by;
                entry["time"] = ms;
                entry["times"] = {ms, ms * 1.01};
            }
            json["cache"][std::to_string(bx) + "," + std::to_string(by)] = entry;
        }
    }
    return json;
}

}  // namespace

TEST_CASE("replay runs a search over a recording and reports it as tune --json does") {
    TempDirectory scratch;
    const auto recording = scratch.path() / "space.json";
    const auto report = scratch.path() / "report.json";
    write_bytes(recording, space().dump());
    const SpvtuneRun run = run_spvtune(
        scratch, {"replay", recording.string(), "--seed", "3", "--json", report.string()});
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    CHECK(contains(run.out, "replay exhaustive (seed 3): measured 11 of 11 recorded points"));
    CHECK(contains(run.out, "winner k[bx=16,by=2]"));
    const nlohmann::json json = nlohmann::json::parse(read_bytes(report));
    CHECK(json["command"] == "replay");
    const nlohmann::json& key = json["problems"][0]["keys"][0];
    CHECK(key["winner"] == "k[bx=16,by=2]");
    CHECK(key["recorded_best"]["name"] == "k[bx=16,by=2]");
    CHECK(key["search"]["trace"].size() == 11);
    CHECK(json["problems"][0]["families"][0]["grid"][1]["values"] == nlohmann::json{1, 2, 4});
    bool failure_listed = false;
    for (const nlohmann::json& candidate : key["candidates"]) {
        if (candidate["name"] == "k[bx=8,by=4]") {
            failure_listed = candidate["reason"] == "recorded failure: CompilationFailedConfig";
        }
    }
    CHECK(failure_listed);
}

TEST_CASE("replay --noise reads points under modelled noise and says so, and refuses a cv <= 0") {
    TempDirectory scratch;
    const auto recording = scratch.path() / "space.json";
    write_bytes(recording, space().dump());
    const SpvtuneRun run =
        run_spvtune(scratch, {"replay", recording.string(), "--noise", "0.1", "--seed", "3"});
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    CHECK(contains(run.out,
                   "measured 11 of 11 recorded points, each reading its recorded mean "
                   "under log-normal noise of cv 0.1"));
    for (const char* refused : {"0", "-0.5"}) {
        CAPTURE(refused);
        const SpvtuneRun bad =
            run_spvtune(scratch, {"replay", recording.string(), "--noise", refused});
        CHECK(bad.exit_code == 2);
        CHECK_MESSAGE(contains(bad.err, "--noise"), bad.err);
    }
}

TEST_CASE("replay writes the recording as a Kernel Tuner cache file that replays the same") {
    TempDirectory scratch;
    const auto recording = scratch.path() / "space.json";
    const auto exported = scratch.path() / "exported.json";
    write_bytes(recording, space().dump());
    const SpvtuneRun run =
        run_spvtune(scratch, {"replay", recording.string(), "--kt-cache", exported.string()});
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    const nlohmann::json written = nlohmann::json::parse(read_bytes(exported));
    CHECK(written["tune_params_keys"] == nlohmann::json{"bx", "by"});
    CHECK(written["cache"].size() == 11);
    CHECK(written["cache"]["8,4"]["time"] == "CompilationFailedConfig");
    CHECK(written["cache"]["16,2"]["times"] == nlohmann::json{1.0, 1.01});
    const SpvtuneRun again = run_spvtune(scratch, {"replay", exported.string()});
    CHECK(again.exit_code == 0);
    CHECK(contains(again.out, "winner k[bx=16,by=2]"));
}

TEST_CASE("replay writes the recording as a T4 results file that replays the same") {
    TempDirectory scratch;
    const auto recording = scratch.path() / "space.json";
    const auto exported = scratch.path() / "exported.json";
    write_bytes(recording, space().dump());
    const SpvtuneRun run =
        run_spvtune(scratch, {"replay", recording.string(), "--t4", exported.string()});
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    const nlohmann::json written = nlohmann::json::parse(read_bytes(exported));
    CHECK(written["schema_version"] == "1.0.0");
    REQUIRE(written["results"].size() == 11);
    std::size_t compile_failures = 0;
    for (const nlohmann::json& result : written["results"]) {
        if (result["configuration"] == nlohmann::json{{"bx", 16}, {"by", 2}}) {
            CHECK(result["times"]["runtimes"] == nlohmann::json{1.0, 1.01});
            CHECK(result["invalidity"] == "correct");
        }
        compile_failures += result["invalidity"] == "compile" ? 1 : 0;
    }
    CHECK(compile_failures == 1);
    // Read back, the space and the winner are the same (a T4 file names no kernel).
    const SpvtuneRun again = run_spvtune(scratch, {"replay", exported.string()});
    REQUIRE_MESSAGE(again.exit_code == 0, again.err);
    CHECK(contains(again.out, "winner recording[bx=16,by=2]"));

    nlohmann::json damaged = written;
    damaged["results"][3]["invalidity"] = "slow";
    write_bytes(exported, damaged.dump());
    const SpvtuneRun refused = run_spvtune(scratch, {"replay", exported.string()});
    CHECK(refused.exit_code == 2);
    CHECK(contains(refused.err, exported.string() + ": /results/3/invalidity: expected one of "));
}

TEST_CASE(
    "replay of a tune report with several keys and families says which it replays, and "
    "--key and --family pick another") {
    TempDirectory scratch;
    const auto recording = scratch.path() / "run.json";
    const auto exported = scratch.path() / "exported.json";
    const auto report = scratch.path() / "report.json";
    // Two keys; the reference `ref` has no grid, so the first space is `mm`.
    write_bytes(recording, R"({"problems": [{
      "families": [{"name": "ref", "grid": []},
                   {"name": "mm", "grid": [{"parameter": "T", "values": [4, 8]}]},
                   {"name": "tiled", "grid": [{"parameter": "U", "values": [2, 4]}]}],
      "keys": [
        {"key": {"n": 1024}, "candidates": [
          {"name": "mm[T=4]", "family": "mm", "point": {"T": 4}, "status": "ok", "samples_ns": [2e5]},
          {"name": "mm[T=8]", "family": "mm", "point": {"T": 8}, "status": "ok", "samples_ns": [1e5]},
          {"name": "tiled[U=2]", "family": "tiled", "point": {"U": 2}, "status": "ok", "samples_ns": [3e5]}]},
        {"key": {"n": 2048}, "candidates": [
          {"name": "tiled[U=2]", "family": "tiled", "point": {"U": 2}, "status": "ok", "samples_ns": [7e5]},
          {"name": "tiled[U=4]", "family": "tiled", "point": {"U": 4}, "status": "ok", "samples_ns": [5e5]}]}]}]})");
    const SpvtuneRun first = run_spvtune(scratch, {"replay", recording.string()});
    REQUIRE_MESSAGE(first.exit_code == 0, first.err);
    CHECK(contains(first.out, "winner mm[T=8]"));
    CHECK(contains(first.err,
                   "replaying family mm (the report also has tiled; --family picks another)"));
    CHECK(contains(first.err,
                   "replaying key n=1024 (the report also has n=2048; --key picks another)"));

    const SpvtuneRun picked =
        run_spvtune(scratch, {"replay", recording.string(), "--key", "n=2048", "--family", "tiled",
                              "--kt-cache", exported.string(), "--json", report.string()});
    REQUIRE_MESSAGE(picked.exit_code == 0, picked.err);
    CHECK(picked.err.empty());
    CHECK(contains(picked.out, "winner tiled[U=4]"));
    const nlohmann::json written = nlohmann::json::parse(read_bytes(exported));
    CHECK(written["kernel_name"] == "tiled");
    CHECK(written["cache"]["4"]["time"] == 0.5);
    const nlohmann::json json = nlohmann::json::parse(read_bytes(report));
    CHECK(json["problems"][0]["keys"][0]["key"] == nlohmann::json{{"n", 2048}});

    const SpvtuneRun no_key =
        run_spvtune(scratch, {"replay", recording.string(), "--key", "n=4096"});
    CHECK(no_key.exit_code == 2);
    CHECK(contains(no_key.err, recording.string() +
                                   ": /problems/0/keys: no key matches --key "
                                   "n=4096; the report's keys are n=1024, n=2048"));
    const SpvtuneRun no_family =
        run_spvtune(scratch, {"replay", recording.string(), "--family", "naive"});
    CHECK(no_family.exit_code == 2);
    CHECK(contains(no_family.err, "no family \"naive\"; the report's families are ref, mm, tiled"));
    const SpvtuneRun malformed = run_spvtune(scratch, {"replay", recording.string(), "--key", "n"});
    CHECK(malformed.exit_code == 2);
    CHECK(contains(malformed.err, "name=value"));
}

TEST_CASE("replay reads a Kernel Tuner cache a stopped run left open, and says what it left out") {
    // Kernel Tuner writes the header, then an entry a line, and closes the file at the end.
    nlohmann::json header = space();
    const nlohmann::json cache = header["cache"];
    header.erase("cache");
    std::string text = header.dump();
    text.pop_back();  // its closing brace
    text += ",\n\"cache\": {\n";
    for (const auto& [name, entry] : cache.items()) {
        text += nlohmann::json(name).dump() + ": " + entry.dump() + ",\n";
    }
    const std::string cut = "\"9,9\": {\"bx\": 9, \"by\": 9, \"ti";
    TempDirectory scratch;
    const auto recording = scratch.path() / "open.json";
    write_bytes(recording, text + cut);
    const SpvtuneRun run = run_spvtune(scratch, {"replay", recording.string()});
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    CHECK(contains(run.err, recording.string() + ": an unfinished Kernel Tuner cache file"));
    CHECK(contains(run.err, "leaving out " + std::to_string(cut.size()) + " bytes"));
    CHECK(contains(run.out, "measured 11 of 11 recorded points"));
    CHECK(contains(run.out, "winner k[bx=16,by=2]"));

    // Cut where closing makes a cache that is short of what it needs: refused, saying why.
    write_bytes(recording,
                "{\"cache\": {\"4,1\": {\"bx\": 4, \"by\": 1, \"time\": 2.5}},\n"
                "\"tune_params_keys\": [\"bx\", \"by\"],\n"
                "\"tune_params\": {\"bx\": [4],\n");
    const SpvtuneRun short_of = run_spvtune(scratch, {"replay", recording.string()});
    CHECK(short_of.exit_code == 2);
    CHECK(contains(short_of.err, "/tune_params: expected a member \"by\""));
    CHECK(contains(short_of.err, "(the file ends unfinished"));
    CHECK_FALSE(contains(short_of.err, "read up to its last complete entry"));
}

TEST_CASE("replay says how the winner compares by medians where the means rank it otherwise") {
    // Kernel Tuner's time is the mean of its runs, a slow first one included: 16,2's cold run
    // puts its mean behind 4,1's, though every later run of it is twice as fast.
    nlohmann::json json = space();
    json["cache"]["16,2"]["times"] = {12.0, 1.0, 1.0, 1.0, 1.0};
    json["cache"]["16,2"]["time"] = 3.2;
    json["cache"]["4,1"]["times"] = {2.0, 2.0, 2.0};
    json["cache"]["4,1"]["time"] = 2.0;
    TempDirectory scratch;
    const auto recording = scratch.path() / "space.json";
    write_bytes(recording, json.dump());
    const SpvtuneRun run = run_spvtune(scratch, {"replay", recording.string()});
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    CHECK(contains(run.out,
                   "winner k[bx=16,by=2]: 3.2 ms recorded mean, 0.6250 of the recorded "
                   "best's speed (1.0000 by the recorded medians, which the race "
                   "compares)"));

    // Where both agree, one figure.
    write_bytes(recording, space().dump());
    const SpvtuneRun agreed = run_spvtune(scratch, {"replay", recording.string()});
    REQUIRE_MESSAGE(agreed.exit_code == 0, agreed.err);
    CHECK(contains(agreed.out, "1.0000 of the recorded best's speed\n"));
}

TEST_CASE("replay says when a recording was tuned for another objective than the time") {
    TempDirectory scratch;
    const auto recording = scratch.path() / "space.json";
    nlohmann::json json = space();
    json["objective"] = "GFLOP/s";
    write_bytes(recording, json.dump());
    const SpvtuneRun run = run_spvtune(scratch, {"replay", recording.string()});
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    CHECK(contains(run.err, recording.string() +
                                ": the recording was tuned for \"GFLOP/s\"; the replay minimises "
                                "its recorded times"));
    CHECK(contains(run.out, "winner k[bx=16,by=2]"));

    json["objective"] = "time";
    write_bytes(recording, json.dump());
    const SpvtuneRun by_time = run_spvtune(scratch, {"replay", recording.string()});
    REQUIRE_MESSAGE(by_time.exit_code == 0, by_time.err);
    CHECK_FALSE(contains(by_time.err, "tuned for"));
}

TEST_CASE("replay reads a gzip-compressed recording, as the benchmark hub publishes them") {
    TempDirectory scratch;
    const auto recording = scratch.path() / "space.json.gz";
    const std::string text = space().dump();
    write_bytes(recording, gzip_member(text));
    const SpvtuneRun run = run_spvtune(scratch, {"replay", recording.string(), "--seed", "3"});
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    CHECK(contains(run.out, "measured 11 of 11 recorded points"));
    CHECK(contains(run.out, "winner k[bx=16,by=2]"));

    // Members written one after another (`gzip -c a >> f; gzip -c b >> f`) are one file.
    const std::size_t half = text.size() / 2;
    write_bytes(recording, gzip_member(text.substr(0, half)) + gzip_member(text.substr(half)));
    const SpvtuneRun members = run_spvtune(scratch, {"replay", recording.string(), "--seed", "3"});
    REQUIRE_MESSAGE(members.exit_code == 0, members.err);
    CHECK(contains(members.out, "winner k[bx=16,by=2]"));
}

TEST_CASE("replay refuses damaged, cut-off and oversized gzip data, and zip archives") {
    TempDirectory scratch;
    const auto recording = scratch.path() / "space.json.gz";
    const std::string packed = gzip_member(space().dump());
    const auto refused = [&](const std::string& bytes) {
        write_bytes(recording, bytes);
        const SpvtuneRun run = run_spvtune(scratch, {"replay", recording.string()});
        CHECK(run.exit_code == 2);
        return run.err;
    };
    CHECK(contains(refused(packed.substr(0, packed.size() / 2)),
                   recording.string() + ": the gzip data ends early"));
    std::string flipped = packed;
    flipped[flipped.size() - 6] = static_cast<char>(flipped[flipped.size() - 6] ^ 0x55);  // CRC
    CHECK(contains(refused(flipped), recording.string() + ": the gzip data is damaged"));
    CHECK(contains(refused(packed + "garbage"),
                   "7 bytes after the end of the gzip data that are not gzip data"));
    // A bomb: 257 members of 1 MiB of zeros each, about 260 KB on disk.
    const std::string zeros = gzip_member(std::string(std::size_t{1} << 20, '\0'));
    std::string bomb;
    for (int member = 0; member < 257; ++member) {
        bomb += zeros;
    }
    CHECK(contains(refused(bomb), "the gzip data decompresses to more than 256 MiB"));
    CHECK(contains(refused(std::string("PK\x03\x04", 4) + "rest of a zip archive"),
                   "a zip archive, not a recording: extract the recording"));
}

TEST_CASE("replay refuses a damaged recording naming the file and the JSON pointer") {
    TempDirectory scratch;
    const auto recording = scratch.path() / "space.json";
    nlohmann::json damaged = space();
    damaged["cache"]["4,1"]["by"] = 3;
    write_bytes(recording, damaged.dump());
    const SpvtuneRun run = run_spvtune(scratch, {"replay", recording.string()});
    CHECK(run.exit_code == 2);
    CHECK(
        contains(run.err, recording.string() + ": /cache/4,1/by: 3 is not one of /tune_params/by"));

    write_bytes(recording, "{\"cache\": ");
    const SpvtuneRun truncated = run_spvtune(scratch, {"replay", recording.string()});
    CHECK(truncated.exit_code == 2);
    CHECK(contains(truncated.err, recording.string() + ": not a JSON recording"));

    write_bytes(recording, std::string(100000, '[') + std::string(100000, ']'));
    const SpvtuneRun deep = run_spvtune(scratch, {"replay", recording.string()});
    CHECK(deep.exit_code == 2);
    CHECK(contains(deep.err, recording.string() + ": not a JSON recording: line 1, column 33"));

    const SpvtuneRun missing = run_spvtune(scratch, {"replay", (scratch.path() / "none").string()});
    CHECK(missing.exit_code == 2);
    CHECK(contains(missing.err, "none"));
}

}  // namespace replay_command_test
