// What `spvtune tune` prints per key, and what its --json report says.
#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>

#include <doctest/doctest.h>

#include "cache/temp_directory.hpp"
#include "support/scoped_env.hpp"
#include "tune_fixture.hpp"

namespace tune_report_test {

using namespace spvtune::test;
using spvtune::tune::testing::read_bytes;
using spvtune::tune::testing::write_bytes;

namespace {

/// Every member name in `json`, at any depth, except inside objects other documents describe.
void member_names(const nlohmann::json& json, std::set<std::string>& names) {
    if (json.is_array()) {
        for (const auto& item : json) {
            member_names(item, names);
        }
    } else if (json.is_object()) {
        for (const auto& [name, value] : json.items()) {
            names.insert(name);
            // The device record and the settings are the cache file's (docs/cache-format.md);
            // keys hold the problem's parameter names.
            if (name != "device" && name != "settings" && name != "key" && name != "tuning_key") {
                member_names(value, names);
            }
        }
    }
}

std::size_t occurrences(const std::string& text, const std::string& part) {
    std::size_t count = 0;
    for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
        ++count;
    }
    return count;
}

// y = 2 * x, PER_THREAD elements per invocation: each point of a grid over both defines is its
// own SPIR-V module.
const char* const per_thread_glsl = R"glsl(#version 450
layout(local_size_x = WG_SIZE) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { float y[]; };
layout(push_constant) uniform Params { uint n; } params;
void main() {
    for (uint k = 0; k < PER_THREAD; ++k) {
        uint i = gl_GlobalInvocationID.x * PER_THREAD + k;
        if (i < params.n) { y[i] = 2.0 * x[i]; }
    }
}
)glsl";

const char* const per_thread_problem = R"json({
    "name": "glsl-grid",
    "parameters": {"n": {"type": "int"}},
    "keys": {"list": [{"n": 4096}]},
    "buffers": {
        "x": {"type": "f32", "count": "n", "init": {"random": {"seed": 1}}, "role": "input"},
        "y": {"type": "f32", "count": "n", "role": "output"}
    },
    "candidates": [{
        "name": "scale", "glsl": "scale.comp", "grid": {"WG": [32, 64], "PT": [1, 2]},
        "defines": {"WG_SIZE": "WG", "PER_THREAD": "PT"},
        "workgroups": ["ceil_div(n, WG * PT)", 1, 1],
        "push_constants": [{"type": "u32", "value": "n"}], "bindings": {"0": "x", "1": "y"}
    }],
    "reference": {"candidate": "scale[WG=32,PT=1]", "compare": {"y": {"exact": true}}},
    "settings": {"warmup": 1, "samples": 3, "min_samples": 3}
})json";

}  // namespace

TEST_CASE("tune --json lists each family once, though its points are separate GLSL modules") {
    TuneFixture fixture;
    write_bytes(fixture.scratch.path() / "scale.comp", per_thread_glsl);
    const auto problem = fixture.scratch.path() / "grid.json";
    write_bytes(problem, per_thread_problem);
    const auto html = fixture.scratch.path() / "grid.html";
    const SpvtuneRun run = run_spvtune(
        fixture.scratch, {"tune", problem.string(), "--cache-dir", fixture.cache.string(), "--json",
                          fixture.report.string(), "--html", html.string(), "-q"});
    REQUIRE_MESSAGE(run.exit_code == 0, run.out << run.err);
    const nlohmann::json families = fixture.report_json().at("problems").at(0).at("families");
    REQUIRE(families.size() == 1);
    CHECK(families.at(0).at("name") == "scale");
    CHECK(families.at(0).at("grid").size() == 2);
    // So the page draws the grid once, with every point in it.
    const std::string page = read_bytes(html);
    CHECK(occurrences(page, "<svg class=\"chart heatmap\"") == 1);
    CHECK(occurrences(page, "<rect class=\"cell measured") == 4);
}

TEST_CASE("tune: a candidate the key's plan skips is listed once, with the plan's reason") {
    TuneFixture fixture;
    const SpvtuneRun run = fixture.tune("skipped.json");
    // A row is "  -  NAME  ...": count rows, not mentions.
    REQUIRE_MESSAGE(run.exit_code == 0, run.out << run.err);
    CHECK_MESSAGE(occurrences(run.out, "-  never ") == 1, run.out);
    CHECK(contains(run.out, "skipped: priority is -1 for this key: never run"));
    CHECK_MESSAGE(occurrences(run.out, "-  constrained ") == 1, run.out);
    CHECK(contains(run.out, "skipped: constraint 'n % 100000 == 0' is false"));
    const auto key = fixture.keys().at(0);
    CHECK(candidate(key, "never").at("status") == "skipped");
    CHECK(candidate(key, "never").at("reason") == "priority is -1 for this key: never run");
}

TEST_CASE("docs/json-report.md names every member of a --json report") {
    TuneFixture fixture;
    std::set<std::string> names;
    auto read_names = [&] { member_names(fixture.report_json(), names); };
    REQUIRE(fixture.tune("scale.json", {"--key", "n=16384"}).exit_code == 0);
    read_names();
    REQUIRE(fixture.tune("unrunnable.json", {"--key", "n=100"}).exit_code == 1);  // an error
    read_names();
    REQUIRE(names.contains("timing_method"));
    const std::string doc = spvtune::tune::testing::read_bytes(std::string(SPVTUNE_SOURCE_DIR) +
                                                               "/docs/json-report.md");
    for (const std::string& name : names) {
        CAPTURE(name);
        CHECK(contains(doc, "`" + name + "`"));
    }
}

TEST_CASE("tune names the cache file as holding the results only when it was written") {
    TuneFixture fixture;
    const SpvtuneRun first = fixture.tune("scale.json", {"--key", "n=16384"});
    REQUIRE(first.exit_code == 0);
    REQUIRE(fixture.cache_files().size() == 1);
    const auto file = fixture.cache_files().front();
    CHECK(contains(first.out, "results in " + file.string()));

    // A file from a newer spvtune is read but never rewritten: the new result is not stored.
    auto json = nlohmann::json::parse(spvtune::tune::testing::read_bytes(file));
    json["schema_version"] = 99;
    spvtune::tune::testing::write_bytes(file, json.dump(2));
    const SpvtuneRun retuned = fixture.tune("scale.json", {"--key", "n=16384", "--retune"});
    CHECK_MESSAGE(contains(retuned.out, "results not stored: " + file.string() +
                                            " was not written (see the notes above)"),
                  retuned.out);
    CHECK_FALSE(contains(retuned.out, "results in"));
}

TEST_CASE("tune records the minimum sample time and the autotune level with each cache entry") {
    TuneFixture fixture;
    const spvtune::test::ScopedEnv level("SPVTUNE_AUTOTUNE_LEVEL", "extensive");
    REQUIRE(fixture.tune("scale.json", {"--key", "n=16384", "--min-sample-ms", "0.3"}).exit_code ==
            0);
    REQUIRE(fixture.cache_files().size() == 1);
    const auto cache =
        nlohmann::json::parse(spvtune::tune::testing::read_bytes(fixture.cache_files().front()));
    const auto& entries = cache.at("tuners").at("scale-test").begin()->at("entries");
    REQUIRE(entries.size() == 1);
    const auto& settings = entries.begin()->at("settings");
    CHECK(settings.at("min_sample_ms") == 0.3);
    CHECK(settings.at("autotune_level") == "extensive");
    CHECK(settings.at("max_samples") == 9);  // the sampling settings are still there
    CHECK(fixture.keys().at(0).at("settings") == settings);
}

TEST_CASE("the --json report says where each key's time went, kernels apart from the rest") {
    TuneFixture fixture;
    REQUIRE(fixture.tune("scale.json", {"--key", "n=16384"}).exit_code == 0);
    const nlohmann::json key = fixture.keys().at(0);
    const nlohmann::json& time = key.at("time");
    const double wall = time.at("wall_s").get<double>();
    CHECK(wall == key.at("elapsed_s").get<double>());
    // The kernel time is every measured batch: the sum of per-dispatch times would be far less
    // whenever a sample batches dispatches (scale.json asks for 0.2 ms per sample).
    double per_dispatch_sum_s = 0;
    double output_runs_sum_s = 0;
    for (const auto& c : key.at("candidates")) {
        if (c.contains("output_runs_ns")) {
            for (const auto& ns : c.at("output_runs_ns")) {
                output_runs_sum_s += ns.get<double>() / 1e9;
            }
        }
        for (const char* list : {"warmup_ns", "samples_ns"}) {
            if (c.contains(list)) {
                for (const auto& ns : c.at(list)) {
                    per_dispatch_sum_s += ns.get<double>() / 1e9;
                }
            }
        }
    }
    const double kernel = time.at("kernel_s").get<double>();
    // Three candidates' outputs checked, each run timed: kernel time too.
    CHECK(output_runs_sum_s > 0);
    CHECK(kernel >= (per_dispatch_sum_s + output_runs_sum_s) * 0.999);
    CHECK(kernel > 0);
    CHECK(kernel <= wall);  // device time measured inside the key's wall time
    CHECK(time.at("output_runs_s").get<double>() > 0);  // three candidates' outputs checked
    // Three candidates' pipelines, built (in the worker) before their first run.
    CHECK(time.at("pipeline_builds_s").get<double>() > 0);
    const double parts = kernel + time.at("measuring_overhead_s").get<double>() +
                         time.at("output_runs_s").get<double>() +
                         time.at("pipeline_builds_s").get<double>() +
                         time.at("other_s").get<double>();
    CHECK(parts == doctest::Approx(wall).epsilon(0.01));

    // A cached key measures and checks nothing: its kernel time is the one run of its answer.
    REQUIRE(fixture.tune("scale.json", {"--key", "n=16384"}).exit_code == 0);
    const nlohmann::json cached_key = fixture.keys().at(0);
    const nlohmann::json& cached = cached_key.at("time");
    const auto& answer = candidate(cached_key, cached_key.at("ran").get<std::string>());
    REQUIRE(answer.at("output_runs_ns").size() == 1);
    CHECK(!answer.contains("samples_ns"));
    CHECK(cached.at("kernel_s").get<double>() ==
          doctest::Approx(answer.at("output_runs_ns").at(0).get<double>() / 1e9).scale(0));
    CHECK(cached.at("measuring_overhead_s").get<double>() == 0);
}

TEST_CASE("the --json report gives the batch each candidate was timed over, one for the race") {
    TuneFixture fixture;
    REQUIRE(fixture.tune("scale.json", {"--key", "n=16384"}).exit_code == 0);
    const nlohmann::json key = fixture.keys().at(0);
    std::map<std::string, std::uint64_t> batches;
    for (const auto& candidate : key.at("candidates")) {
        if (candidate.contains("samples_ns")) {
            batches[candidate.at("name").get<std::string>()] =
                candidate.at("batch_runs").get<std::uint64_t>();
        }
    }
    // The slow reference and the fast candidate (the others fail their check) calibrate batches
    // of different sizes on their own (0.2 ms per sample: about 2 runs of the fast one, 1 of the
    // slow one, 30 times slower), and race over the fast one's.
    REQUIRE(batches.size() == 2);
    CHECK(batches.at("slow") == batches.at("fast"));
}

TEST_CASE("the table ranks by median: a candidate eliminated early sits by its time, marked") {
    TuneFixture fixture;
    REQUIRE(fixture.tune("scale.json", {"--key", "n=16384", "--keep-ranking"}).exit_code == 0);
    // The reference, eliminated early but, in this cache, faster than the winner: the tuner
    // ranks it below the winner (the winner comes from the candidates still racing).
    REQUIRE(fixture.cache_files().size() == 1);
    const auto file = fixture.cache_files().front();
    nlohmann::json document = nlohmann::json::parse(read_bytes(file));
    bool edited = false;
    for (auto& [tuner, lists] : document.at("tuners").items()) {
        for (auto& [checksum, list] : lists.items()) {
            for (auto& [key, entry] : list.at("entries").items()) {
                for (auto& ranked : entry.at("ranking")) {
                    if (ranked.at("name") != "slow") {
                        continue;
                    }
                    ranked["eliminated"] = true;
                    // Whether the first run found the two tied depends on its noise (one
                    // stalled round of the fast one is enough); this table shows an untied one.
                    ranked["tied_with_winner"] = false;
                    nlohmann::json& stats = ranked.at("statistics");
                    for (const char* member :
                         {"ci_high_ns", "ci_low_ns", "mean_ns", "median_ns", "min_ns"}) {
                        stats[member] = 1000.0;
                    }
                    stats["samples"] = 1;
                    stats["stddev_ns"] = 0.0;
                    edited = true;
                }
            }
        }
    }
    REQUIRE(edited);
    write_bytes(file, document.dump());

    const SpvtuneRun run = fixture.tune("scale.json", {"--key", "n=16384", "-v"});
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    const auto slow = run.out.find("  1  slow ");
    const auto fast = run.out.find("  2  fast ");
    REQUIRE_MESSAGE(slow != std::string::npos, run.out);
    REQUIRE_MESSAGE(fast != std::string::npos, run.out);
    CHECK(contains(run.out.substr(slow, run.out.find('\n', slow) - slow),
                   "ok, eliminated early, reference"));
    CHECK(contains(run.out.substr(fast, run.out.find('\n', fast) - fast), "ok (winner)"));
}

}  // namespace tune_report_test
