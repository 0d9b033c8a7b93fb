// `spvtune report` and `tune --html`: one self-contained HTML page drawn from the JSON reports of
// tune, compare and cache diff, and clear errors for anything else.
#include <filesystem>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "html_report/svg_text.hpp"
#include "tune_fixture.hpp"

namespace report_command_test {

using namespace spvtune::test;
using spvtune::tune::testing::read_bytes;
using spvtune::tune::testing::write_bytes;

namespace {

/// The candidates of a tune report's key that have statistics, which the chart draws as bars.
std::size_t measured_candidates(const nlohmann::json& key) {
    std::size_t count = 0;
    for (const auto& candidate : key.at("candidates")) {
        count += candidate.contains("statistics") ? 1 : 0;
    }
    return count;
}

/// What every page must be: one document, nothing that runs, nothing fetched.
void check_self_contained(const std::string& page) {
    CHECK(page.starts_with("<!DOCTYPE html>"));
    CHECK(occurrences(page, "</html>") == 1);
    CHECK(occurrences(page, "<script") == 0);
    CHECK(occurrences(page, "://") == 0);  // no URL at all: no font, image or stylesheet
    CHECK(occurrences(page, "url(") == 0);
    CHECK(occurrences(page, "<link") == 0);
    CHECK(occurrences(page, "<style>") == 1);
}

SpvtuneRun report(const TuneFixture& fixture, std::vector<std::string> args) {
    args.insert(args.begin(), "report");
    return run_spvtune(fixture.scratch, args);
}

/// The page spvtune report writes to stdout for `json`, saved as a file first.
std::string page_of(const TuneFixture& fixture, const nlohmann::json& json) {
    const auto input = fixture.scratch.path() / "input.json";
    write_bytes(input, json.dump());
    const SpvtuneRun run = report(fixture, {input.string(), "-o", "-"});
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    return run.out;
}

/// A compare --json report with one contender of each verdict and one that was not measured.
nlohmann::json compare_report() {
    auto contender = [](const char* name, double ratio, double low, double high,
                        const char* verdict) {
        return nlohmann::json{{"name", name},        {"status", "ok"},     {"ratio", ratio},
                              {"ratio_low", low},    {"ratio_high", high}, {"verdict", verdict},
                              {"regression", false}, {"samples_ns", {1.0}}};
    };
    nlohmann::json wrong{{"name", "broken<b>"},
                         {"status", "wrong output"},
                         {"message", "differs from 'base': y[0]"},
                         {"regression", true}};
    return {{"schema_version", 1},
            {"command", "compare"},
            {"mode", "candidates"},
            {"device", "llvmpipe"},
            {"hardware", {{"identity", "llvmpipe-id"}}},
            {"threshold", 0.05},
            {"fail_if_slower", nullptr},
            {"warnings", {"noise is high"}},
            {"comparisons",
             {{{"problem", "p"},
               {"baseline_source", "base"},
               {"contender_source", "new"},
               {"keys",
                {{{"key", {{"n", 4}}},
                  {"contenders",
                   {contender("fast", 0.5, 0.45, 0.55, "faster"),
                    contender("slow", 1.5, 1.4, 1.6, "slower"),
                    contender("same", 1.0, 0.98, 1.02, "equivalent"),
                    contender("unsure", 1.02, 0.9, 1.1, "inconclusive"), wrong}}}}}}}},
            {"summary",
             {{"faster", 1},
              {"slower", 1},
              {"equivalent", 1},
              {"inconclusive", 1},
              {"wrong_output", 1},
              {"skipped", 0},
              {"failed", 0},
              {"regressions", 1},
              {"exit_code", 0}}}};
}

nlohmann::json cache_diff_report() {
    auto entry = [](const char* change, const char* old_winner, const char* new_winner,
                    nlohmann::json old_ns, nlohmann::json new_ns) {
        return nlohmann::json{{"change", change},         {"tuner", "matmul"},
                              {"key", "{\"M\":128}"},     {"old_winner", old_winner},
                              {"new_winner", new_winner}, {"old_ns", old_ns},
                              {"new_ns", new_ns}};
    };
    return {{"schema_version", 1},
            {"command", "cache diff"},
            {"notes", {"hardware other is only in old"}},
            {"hardware",
             {{{"hardware", "llvmpipe-id"},
               {"device", "llvmpipe"},
               {"entries",
                {entry("winner changed", "naive", "tiled[T=16]", 2000.0, 1000.0),
                 entry("winner changed", "tiled[T=8]", "naive", 1000.0, 1250.0),
                 entry("added", "", "blocked", nullptr, 500.0)}}}}}};
}

/// A tune report of one key with two families over the same 1 x 2 grid, `fast` winning.
nlohmann::json two_family_report() {
    auto candidate = [](const std::string& family, int b, double median_ns, const char* status) {
        return nlohmann::json{{"name", family + "[A=1,B=" + std::to_string(b) + "]"},
                              {"family", family},
                              {"point", {{"A", 1}, {"B", b}}},
                              {"status", status},
                              {"statistics",
                               {{"samples", 5},
                                {"median_ns", median_ns},
                                {"ci_low_ns", median_ns},
                                {"ci_high_ns", median_ns}}}};
    };
    const nlohmann::json grid{{{"parameter", "A"}, {"values", {1}}},
                              {{"parameter", "B"}, {"values", {1, 2}}}};
    return {
        {"command", "tune"},
        {"device", {{"device_name", "gpu"}, {"identity", "gpu-id"}}},
        {"problems",
         {{{"name", "two"},
           {"families", {{{"name", "fast"}, {"grid", grid}}, {{"name", "slow"}, {"grid", grid}}}},
           {"keys",
            {{{"key", {{"n", 1}}},
              {"status", "tuned"},
              {"elapsed_s", 1.0},
              {"winner", "fast[A=1,B=1]"},
              {"candidates",
               {candidate("fast", 1, 100, "winner"), candidate("fast", 2, 150, "ok"),
                candidate("slow", 1, 300, "ok"), candidate("slow", 2, 400, "ok")}}}}}}}}};
}

}  // namespace

TEST_CASE("spvtune report colours every heatmap of a key on one scale, from the key's best") {
    TuneFixture fixture;
    const std::string page = page_of(fixture, two_family_report());
    CHECK(occurrences(page, "<svg class=\"chart heatmap\"") == 2);
    // Green (heat_colour(0)) for the key's fastest point alone, not for the slow family's best;
    // orange (heat_colour(1)) for the slowest point of both grids alone.
    CHECK(occurrences(page, "fill=\"#66bd63\"") == 1);
    CHECK(occurrences(page, "fill=\"#f46d43\"") == 1);
    CHECK(contains(page, "One colour scale for every grid of this key"));
}

TEST_CASE(
    "spvtune report draws a heatmap's values in ascending order, whatever order the grid lists") {
    TuneFixture fixture;
    nlohmann::json tune = two_family_report();
    // The searches step between values in ascending order; a heatmap in file order would put
    // a point's neighbours in the search apart on the page.
    for (nlohmann::json& family : tune["problems"][0]["families"]) {
        family["grid"][1]["values"] = {2, 1};
    }
    const std::string page = page_of(fixture, tune);
    const std::size_t start = page.find("<svg class=\"chart heatmap\"");
    REQUIRE(start != std::string::npos);
    const std::string heatmap = page.substr(start, page.find("</svg>", start) - start);
    const std::size_t b1 = heatmap.find("fast[A=1,B=1]");
    const std::size_t b2 = heatmap.find("fast[A=1,B=2]");
    REQUIRE(b1 != std::string::npos);
    REQUIRE(b2 != std::string::npos);
    CHECK(b1 < b2);
}

/// A tune report of one key whose family lists a `size` x `size` grid, with a candidate at each
/// of `points` (A, B) values, measured with the given medians.
nlohmann::json large_grid_report(int size, const std::vector<std::pair<int, int>>& points) {
    nlohmann::json values = nlohmann::json::array();
    for (int v = 1; v <= size; ++v) {
        values.push_back(v);
    }
    nlohmann::json candidates = nlohmann::json::array();
    for (std::size_t i = 0; i < points.size(); ++i) {
        const auto [a, b] = points[i];
        const double median_ns = 100.0 + static_cast<double>(i);
        candidates.push_back(
            {{"name", "g[A=" + std::to_string(a) + ",B=" + std::to_string(b) + "]"},
             {"family", "g"},
             {"point", {{"A", a}, {"B", b}}},
             {"status", i == 0 ? "winner" : "ok"},
             {"statistics",
              {{"samples", 5},
               {"median_ns", median_ns},
               {"ci_low_ns", median_ns},
               {"ci_high_ns", median_ns}}}});
    }
    const nlohmann::json grid{{{"parameter", "A"}, {"values", values}},
                              {{"parameter", "B"}, {"values", values}}};
    return {{"command", "tune"},
            {"device", {{"device_name", "gpu"}, {"identity", "gpu-id"}}},
            {"problems",
             {{{"name", "large"},
               {"families", {{{"name", "g"}, {"grid", grid}}}},
               {"keys",
                {{{"key", {{"n", 1}}},
                  {"status", "tuned"},
                  {"elapsed_s", 1.0},
                  {"winner", candidates[0]["name"]},
                  {"candidates", candidates}}}}}}}};
}

// A family may list a grid far larger than what a key ran: 1000 x 1000 values and two measured
// points drew a million cells (a 241 MB page, 850 MB of memory; 3000 x 3000 ran out of memory).
TEST_CASE("spvtune report draws a grid only where the key's candidates lie, and says so") {
    TuneFixture fixture;
    const std::string page = page_of(fixture, large_grid_report(1000, {{3, 500}, {900, 7}}));
    CHECK(page.size() < 100'000);
    // The rows 3 and 900 by the columns 7 and 500: the two points and two that are not.
    CHECK(occurrences(page, "<rect class=\"cell ") == 4);
    CHECK(occurrences(page, "<rect class=\"cell measured") == 2);
    CHECK(occurrences(page, "<rect class=\"cell missing\"") == 2);
    CHECK_MESSAGE(contains(page,
                           "Drawn where a candidate of this key lies: 2 of the 1000 values "
                           "of A, 2 of the 1000 values of B; 999996 of the grid&#39;s "
                           "1000000 points are left out."),
                  page.substr(page.find("Drawn"), 300));
}

TEST_CASE("spvtune report draws at most 100 values of a parameter, those of the fastest points") {
    TuneFixture fixture;
    // A diagonal of 150 measured points, slower and slower.
    std::vector<std::pair<int, int>> diagonal;
    for (int v = 1; v <= 150; ++v) {
        diagonal.emplace_back(v, v);
    }
    const std::string page = page_of(fixture, large_grid_report(150, diagonal));
    CHECK(occurrences(page, "<rect class=\"cell ") == 100 * 100);
    CHECK(occurrences(page, "<rect class=\"cell measured") == 100);
    CHECK(contains(page,
                   "100 of the 150 values of A (the 100 with the fastest points of the 150 "
                   "where a candidate lies)"));
    // The fastest (the winner at A=1, B=1) is drawn; the slowest (150) is not.
    CHECK(contains(page, "g[A=1,B=1]"));
    CHECK_FALSE(contains(page, "g[A=150,B=150]: ok"));
}

TEST_CASE("spvtune report says why a key with a winner has no speedup over its reference") {
    TuneFixture fixture;
    nlohmann::json tune = two_family_report();
    nlohmann::json& key = tune["problems"][0]["keys"][0];
    CHECK(contains(page_of(fixture, tune), "<td class=\"number\">no reference</td>"));
    key["reference"] = "slow[A=1,B=2]";
    CHECK(contains(page_of(fixture, tune), "<td class=\"number\">4.00x faster</td>"));
    nlohmann::json& reference = key["candidates"][3];
    reference.erase("statistics");
    reference["status"] = "wrong output";
    reference["reason"] = "differs";
    CHECK(contains(page_of(fixture, tune), "<td class=\"number\">reference wrong output</td>"));
}

TEST_CASE("tune --html draws every measured candidate of every key, its failures and its grid") {
    TuneFixture fixture;
    const auto html = fixture.scratch.path() / "report.html";
    const SpvtuneRun run = fixture.tune("grid2.json", {"--html", html.string()});
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    const std::string page = read_bytes(html);
    check_self_contained(page);
    const nlohmann::json key = fixture.keys().at(0);
    CHECK(measured_candidates(key) >= 4);  // slow and the three correct points at least
    CHECK(occurrences(page, "<rect class=\"bar ") == measured_candidates(key));
    CHECK(occurrences(page, "<rect class=\"bar winner\"") == 1);
    // Every sample of the run is a dot.
    std::size_t samples = 0;
    for (const auto& candidate : key.at("candidates")) {
        samples += candidate.value("samples_ns", nlohmann::json::array()).size();
    }
    CHECK(occurrences(page, "<circle") == samples);
    // The 3 x 2 grid: the point a constraint removed is missing, those that write half failed.
    CHECK(occurrences(page, "<rect class=\"cell ") == 6);
    CHECK(occurrences(page, "<rect class=\"cell missing\"") == 1);
    CHECK(occurrences(page, "<rect class=\"cell failed\"") == 2);
    CHECK(occurrences(page, "grid: median time over WG &#215; PART") == 1);
    // Failures are listed with their reasons.
    CHECK(contains(page, "<b>grid[WG=32,PART=2]</b> (wrong output): differs from"));
    // The summary names the device and the winner.
    CHECK(contains(page, fixture.report_json().at("device").at("identity").get<std::string>()));
    CHECK(contains(page, "<td>" + key.at("winner").get<std::string>() + "</td>"));
}

TEST_CASE("tune --html gives a cached key's speedup when the cache kept it, else says why" *
          doctest::test_suite("timing")) {
    // grid2.json ranks four candidates, its slow reference last: by default the cache keeps the
    // statistics of the winner and two runners-up only, not the reference's. Its reference is
    // dispatched 24 times per run here: a kernel of 0.2 ms can read several ms on a loaded
    // machine, and one reading of each was seen to rank a single-dispatch reference third.
    TuneFixture fixture;
    auto problem = nlohmann::json::parse(read_bytes(problems + "/grid2.json"));
    nlohmann::json& slow = problem["candidates"][0];
    nlohmann::json step = {{"repeat", 24}};
    for (const char* field : {"workgroups", "push_constants", "bindings"}) {
        step[field] = slow[field];
        slow.erase(field);
    }
    slow["steps"] = nlohmann::json::array({step});
    const auto file = fixture.scratch.path() / "grid2.json";
    write_bytes(file, problem.dump());
    const auto html = fixture.scratch.path() / "report.html";
    REQUIRE(fixture.tune_file(file, {"--key", "n=16384"}).exit_code == 0);
    REQUIRE(fixture.tune_file(file, {"--key", "n=16384", "--html", html.string()}).exit_code == 0);
    REQUIRE(fixture.keys().at(0).at("status") == "cached");
    std::string page = read_bytes(html);
    CHECK(contains(page, "<td class=\"number\">not kept in the cache</td>"));
    CHECK(contains(page, "tune with <code class=\"option\">--keep-ranking</code>"));

    // Retuned keeping every candidate's statistics, the cached key has its speedup.
    REQUIRE(fixture.tune_file(file, {"--key", "n=16384", "--retune", "--keep-ranking"}).exit_code ==
            0);
    REQUIRE(fixture.tune_file(file, {"--key", "n=16384", "--html", html.string()}).exit_code == 0);
    REQUIRE(fixture.keys().at(0).at("status") == "cached");
    page = read_bytes(html);
    CHECK(contains(page, "x faster</td>"));
    CHECK_FALSE(contains(page, "not kept in the cache"));
}

TEST_CASE("spvtune report draws a saved tune report as tune --html does") {
    TuneFixture fixture;
    const auto direct = fixture.scratch.path() / "direct.html";
    REQUIRE(fixture.tune("scale.json", {"--html", direct.string()}).exit_code == 0);
    const auto from_file = fixture.scratch.path() / "from-file.html";
    const SpvtuneRun run = report(fixture, {fixture.report.string(), "-o", from_file.string()});
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    std::string page = read_bytes(from_file);
    check_self_contained(page);
    // The same page, but for the heading that names the file.
    const std::string label = fixture.report.string();
    page.replace(page.find(label), label.size(), "this run");
    CHECK(page == read_bytes(direct));
    // Both keys, each with a chart; the wrong and the half-writing candidates listed.
    CHECK(occurrences(page, "<svg class=\"chart candidates\"") == 2);
    CHECK(occurrences(page, "<b>wrong</b> (wrong output): differs from") == 2);
    CHECK(occurrences(page, "<b>half</b> (wrong output)") == 2);
    CHECK(occurrences(page, "<rect class=\"cell") == 0);  // no family has two parameters
}

TEST_CASE("spvtune report reads what compare --json and cache diff --json really write") {
    TuneFixture fixture;
    REQUIRE(fixture.tune("scale.json", {"--key", "n=16384"}).exit_code == 0);
    const auto compared = fixture.scratch.path() / "compared.json";
    const SpvtuneRun compare =
        run_spvtune(fixture.scratch, {"compare", "--results", fixture.report.string(),
                                      fixture.report.string(), "--json", compared.string()});
    REQUIRE_MESSAGE(compare.exit_code == 0, compare.err);
    const auto empty = fixture.scratch.path() / "empty-cache";
    std::filesystem::create_directories(empty);
    const auto diffed = fixture.scratch.path() / "diffed.json";
    const SpvtuneRun diff = run_spvtune(
        fixture.scratch,
        {"cache", "diff", empty.string(), fixture.cache.string(), "--json", diffed.string()});
    REQUIRE_MESSAGE(diff.exit_code == 0, diff.err);

    const SpvtuneRun run = report(fixture, {compared.string(), diffed.string(), "-o", "-"});
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    check_self_contained(run.out);
    // One ratio per candidate compared with itself (each measured one), at 1.
    const nlohmann::json comparison = nlohmann::json::parse(read_bytes(compared));
    std::size_t ratios = 0;
    for (const auto& key : comparison.at("comparisons").at(0).at("keys")) {
        ratios += key.at("contenders").size();
    }
    CHECK(ratios >= 2);
    CHECK(occurrences(run.out, "<circle class=\"ratio verdict-") == ratios);
    CHECK(occurrences(run.out, ": 1x (") == ratios);  // each dot's tooltip
    // The new cache's entry, added.
    CHECK(occurrences(run.out, "<tr><td>added</td><td>scale-test</td>") == 1);
}

TEST_CASE("spvtune report colours each compare verdict and lists what was not compared") {
    TuneFixture fixture;
    const std::string page = page_of(fixture, compare_report());
    check_self_contained(page);
    for (const char* verdict : {"faster", "slower", "equivalent", "inconclusive"}) {
        CAPTURE(verdict);
        CHECK(occurrences(page, std::string("<circle class=\"ratio verdict-") + verdict) == 1);
    }
    CHECK(occurrences(page, "<rect class=\"band\"") == 1);
    CHECK(contains(page, "<b>broken&lt;b&gt;</b> (wrong output): differs from &#39;base&#39;"));
    CHECK(contains(page, "<li>noise is high</li>"));
}

TEST_CASE("spvtune report never breaks an option's name in a warning across lines") {
    TuneFixture fixture;
    nlohmann::json compare = compare_report();
    compare["warnings"] = {
        "n=4: the baseline's samples vary by 9.1%: raise --samples or --min-sample-ms, widen "
        "--threshold, or quiet the machine",
        "a -- b and x--y name no option; --<b> neither"};
    const std::string page = page_of(fixture, compare);
    // A browser breaks a line after a hyphen; the page keeps each option whole.
    CHECK(contains(page, "code.option { white-space: nowrap; }"));
    CHECK(contains(page,
                   "<li>n=4: the baseline&#39;s samples vary by 9.1%: raise <code "
                   "class=\"option\">--samples</code> or <code "
                   "class=\"option\">--min-sample-ms</code>, widen <code "
                   "class=\"option\">--threshold</code>, or quiet the machine</li>"));
    CHECK(contains(page, "<li>a -- b and x--y name no option; --&lt;b&gt; neither</li>"));
}

TEST_CASE("spvtune report tables a cache diff's winner changes with their speedups") {
    TuneFixture fixture;
    const std::string page = page_of(fixture, cache_diff_report());
    check_self_contained(page);
    CHECK(occurrences(page, "<tr><td>winner changed</td>") == 2);
    CHECK(contains(page, "verdict-faster\">2.00x faster</td>"));
    CHECK(contains(page, "verdict-slower\">1.25x slower</td>"));
    CHECK(contains(page, "<td>tiled[T=16]</td>"));
    CHECK(contains(page, "<li>hardware other is only in old</li>"));
}

TEST_CASE("spvtune report puts several reports on one page, in order") {
    TuneFixture fixture;
    const auto diff = fixture.scratch.path() / "diff.json";
    const auto compare = fixture.scratch.path() / "compare.json";
    write_bytes(diff, cache_diff_report().dump());
    write_bytes(compare, compare_report().dump());
    const SpvtuneRun run = report(fixture, {diff.string(), compare.string(), "-o", "-"});
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    const auto changes = run.out.find("<h2>Cache changes");
    const auto comparison = run.out.find("<h2>Comparison");
    REQUIRE(changes != std::string::npos);
    REQUIRE(comparison != std::string::npos);
    CHECK(changes < comparison);
}

TEST_CASE("a report of ten keys of twenty candidates with sixty samples each stays under 1 MiB") {
    TuneFixture fixture;
    nlohmann::json candidates = nlohmann::json::array();
    for (int c = 0; c < 20; ++c) {
        std::vector<double> samples;
        for (int s = 0; s < 60; ++s) {
            samples.push_back(1000.0 * (c + 1) + s * 3.7);
        }
        candidates.push_back({{"name", "candidate[WG=" + std::to_string(c) + "]"},
                              {"status", c == 0 ? "winner" : "ok"},
                              {"statistics",
                               {{"samples", 60},
                                {"median_ns", 1000.0 * (c + 1) + 110},
                                {"ci_low_ns", 1000.0 * (c + 1) + 90},
                                {"ci_high_ns", 1000.0 * (c + 1) + 130}}},
                              {"samples_ns", samples}});
    }
    nlohmann::json keys = nlohmann::json::array();
    for (int k = 0; k < 10; ++k) {
        keys.push_back({{"key", {{"n", k}}},
                        {"status", "tuned"},
                        {"elapsed_s", 1.5},
                        {"reference", "candidate[WG=3]"},
                        {"winner", "candidate[WG=0]"},
                        {"candidates", candidates}});
    }
    const nlohmann::json tune{{"device", {{"device_name", "gpu"}, {"identity", "gpu-id"}}},
                              {"problems", {{{"name", "big"}, {"keys", keys}}}}};
    const auto input = fixture.scratch.path() / "big.json";
    write_bytes(input, tune.dump());
    const auto html = fixture.scratch.path() / "big.html";
    REQUIRE(report(fixture, {input.string(), "-o", html.string()}).exit_code == 0);
    const std::string page = read_bytes(html);
    CHECK(occurrences(page, "<circle") == 10 * 20 * 60);
    CHECK(page.size() < 1024 * 1024);
    // The speedup over the reference: its median over the winner's.
    CHECK(contains(page, "<td class=\"number\">3.70x faster</td>"));
}

TEST_CASE("spvtune report names the file and the place of what it cannot read") {
    TuneFixture fixture;
    const auto file = fixture.scratch.path() / "input.json";
    const auto html = fixture.scratch.path() / "out.html";
    auto refused = [&](const std::string& content) {
        write_bytes(file, content);
        const SpvtuneRun run = report(fixture, {file.string(), "-o", html.string()});
        CHECK(run.exit_code == 2);
        CHECK_FALSE(std::filesystem::exists(html));
        return run.err;
    };
    CHECK(contains(refused("{\"problems\": ["), file.string() + ": not valid JSON"));
    // A problem file is JSON but no report.
    const std::string problem = read_bytes(problems + "/scale.json");
    CHECK(contains(refused(problem), file.string() +
                                         ": not a report written by spvtune tune "
                                         "--json, compare --json or cache diff --json"));
    CHECK(contains(refused("{\"command\": \"cache show\"}"), "a report of 'cache show'"));
    CHECK(contains(refused(R"({"device": {}, "problems": [{"name": "p", "keys": [{"key": {},
        "status": "tuned", "elapsed_s": 1, "candidates": {}}]}]})"),
                   file.string() + ": at /problems/0/keys/0/candidates: expected an array"));
    CHECK(contains(refused(R"({"command": "compare", "device": "d"})"),
                   file.string() + ": at /mode: expected a value (it is missing)"));
}

TEST_CASE("tune refuses --json - with --html -: both cannot own stdout") {
    TuneFixture fixture;
    const SpvtuneRun run = run_spvtune(
        fixture.scratch, {"tune", problems + "/scale.json", "--json", "-", "--html", "-"});
    CHECK(run.exit_code == 2);
    CHECK(contains(run.err, "--json - and --html - cannot both write to stdout"));
}

}  // namespace report_command_test
