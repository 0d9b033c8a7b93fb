// tune --search, --budget, --max-candidates, --seed and --patience: which points are measured,
// what the --json report and the console say of the search, and bad values refused before
// anything runs.
#include <set>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "tune_fixture.hpp"

namespace tune_search_test {

using namespace spvtune::test;

namespace {

/// The names of the key's candidates with `status`, and of the others.
std::set<std::string> with_status(const nlohmann::json& key, const std::string& status) {
    std::set<std::string> names;
    for (const auto& c : key.at("candidates")) {
        if (c.at("status") == status) {
            names.insert(c.at("name").get<std::string>());
        }
    }
    return names;
}

}  // namespace

TEST_CASE("tune --search random --max-candidates 3 measures three points, the reference first") {
    TuneFixture fixture;
    const SpvtuneRun run =
        fixture.tune("grid2.json", {"--search", "random", "--max-candidates", "3", "--seed", "4"});
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    CHECK_MESSAGE(contains(run.out, "search random: measured 3 of 6 points (seed 4)"), run.out);
    const nlohmann::json key = fixture.keys().at(0);
    const nlohmann::json& search = key.at("search");
    CHECK(search.at("strategy") == "random");
    CHECK(search.at("seed") == 4);
    CHECK(search.at("measured") == 3);
    CHECK(search.at("runnable") == 6);
    CHECK(search.at("max_candidates") == 3);
    CHECK(search.at("budget_s").is_null());
    REQUIRE(search.at("trace").size() == 3);
    CHECK(search.at("trace").at(0).at("name") == "slow");
    // The three points never proposed were never run: no samples, no reason, "not run".
    const std::set<std::string> not_run = with_status(key, "not run");
    CHECK(not_run.size() == 3);
    for (const auto& step : search.at("trace")) {
        CHECK_FALSE(not_run.contains(step.at("name").get<std::string>()));
    }
    for (const std::string& name : not_run) {
        CHECK_FALSE(candidate(key, name).contains("samples_ns"));
    }
    // The cache entry records the search with its settings.
    CHECK(key.at("settings").at("search").at("strategy") == "random");
    CHECK(key.at("settings").at("search").at("measured") == 3);
}

TEST_CASE("tune --search: the wrong points of a grid never win, whatever the strategy") {
    int caught = 0;
    for (const char* strategy : {"exhaustive", "random", "halving", "local", "genetic", "bayes"}) {
        CAPTURE(strategy);
        TuneFixture fixture;
        const SpvtuneRun run = fixture.tune("grid2.json", {"--search", strategy});
        REQUIRE_MESSAGE(run.exit_code == 0, run.err);
        const nlohmann::json key = fixture.keys().at(0);
        CHECK(key.at("search").at("strategy") == strategy);
        const std::string winner = key.at("winner");
        CHECK(winner.find("PART=2") == std::string::npos);
        for (const auto& step : key.at("search").at("trace")) {
            const std::string name = step.at("name");
            if (name.find("PART=2") == std::string::npos) {
                continue;
            }
            // A point whose first reading is far behind the best is left unchecked: on a busy
            // machine a short kernel's one reading may be, whatever it writes. Exhaustive and
            // random admit every point they measure, which checks it: none may stay unchecked.
            const bool probes =
                std::string(strategy) != "exhaustive" && std::string(strategy) != "random";
            if (probes && step.value("unchecked", false)) {
                CHECK_FALSE(step.at("finalist").get<bool>());
                CHECK(candidate(key, name).at("status") == "unchecked");
                continue;
            }
            CHECK(step.at("median_ns").is_null());
            CHECK(contains(step.at("error").get<std::string>(), "differs from 'slow'"));
            CHECK(candidate(key, name).at("status") == "wrong output");
            ++caught;
        }
    }
    CHECK(caught > 0);
}

TEST_CASE(
    "tune --search overrides the file's settings.search, and a cached key keeps the summary") {
    TuneFixture fixture;
    auto json = nlohmann::json::parse(spvtune::tune::testing::read_bytes(problems + "/grid2.json"));
    json["settings"]["search"] = "random";
    json["settings"]["max_candidates"] = 2;
    const auto file = fixture.scratch.path() / "grid2.json";
    spvtune::tune::testing::write_bytes(file, json.dump());
    const std::vector<std::string> args{"tune",         file.string(),
                                        "--cache-dir",  fixture.cache.string(),
                                        "--kernel-dir", SPVTUNE_CLI_TEST_KERNEL_DIR,
                                        "--json",       fixture.report.string()};
    const SpvtuneRun from_file = run_spvtune(fixture.scratch, args);
    REQUIRE_MESSAGE(from_file.exit_code == 0, from_file.err);
    CHECK(fixture.keys().at(0).at("search").at("strategy") == "random");
    CHECK(fixture.keys().at(0).at("search").at("measured") == 2);

    auto overridden = args;
    overridden.insert(overridden.end(),
                      {"--retune", "--search", "halving", "--max-candidates", "4"});
    const SpvtuneRun from_option = run_spvtune(fixture.scratch, overridden);
    REQUIRE_MESSAGE(from_option.exit_code == 0, from_option.err);
    CHECK(fixture.keys().at(0).at("search").at("strategy") == "halving");
    CHECK(fixture.keys().at(0).at("search").at("measured") == 4);

    // Answered from the cache: the entry's summary, without a trace.
    const SpvtuneRun cached = run_spvtune(fixture.scratch, args);
    REQUIRE_MESSAGE(cached.exit_code == 0, cached.err);
    const nlohmann::json key = fixture.keys().at(0);
    CHECK(key.at("status") == "cached");
    CHECK(key.at("search").at("strategy") == "halving");
    CHECK_FALSE(key.at("search").contains("trace"));
}

TEST_CASE("tune: bad search options are usage errors (exit 2) and leave the cache as it was") {
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"--search", "annealing"},
         "expected exhaustive, random, halving, local, genetic or bayes, found annealing"},
        {{"--budget", "0"}, "expected a number > 0, found 0"},
        {{"--budget", "-1"}, "expected a number > 0, found -1"},
        {{"--budget", "nan"}, "expected a number > 0, found nan"},
        {{"--max-candidates", "0"}, "expected an integer in 1..1000000, found 0"},
        {{"--max-candidates", "many"}, "expected an integer in 1..1000000, found many"},
        {{"--seed", "-1"}, "found -1"},
        {{"--seed", "x"}, "found x"},
        {{"--patience", "0"}, "expected an integer in 1..1000, found 0"},
        {{"--patience", "1001"}, "expected an integer in 1..1000, found 1001"},
    };
    TuneFixture fixture;
    REQUIRE(fixture.tune("grid2.json").exit_code == 0);
    REQUIRE(fixture.cache_files().size() == 1);
    const std::string before = spvtune::tune::testing::read_bytes(fixture.cache_files().front());
    for (const auto& [options, message] : cases) {
        CAPTURE(options.front());
        CAPTURE(options.back());
        std::vector<std::string> retune = options;
        retune.push_back("--retune");
        const SpvtuneRun run = fixture.tune("grid2.json", retune);
        CHECK(run.exit_code == 2);
        CHECK_MESSAGE(contains(run.err, message), run.err);
        // The cache the earlier run wrote is left exactly as it was.
        REQUIRE(fixture.cache_files().size() == 1);
        CHECK(spvtune::tune::testing::read_bytes(fixture.cache_files().front()) == before);
    }
}

TEST_CASE("tune --seed: the same seed measures the same points in the same order") {
    std::vector<std::vector<std::string>> orders;
    for (const char* seed : {"11", "11"}) {
        TuneFixture fixture;
        const SpvtuneRun run = fixture.tune(
            "grid2.json", {"--search", "random", "--max-candidates", "4", "--seed", seed});
        REQUIRE_MESSAGE(run.exit_code == 0, run.err);
        std::vector<std::string> order;
        const nlohmann::json key = fixture.keys().at(0);
        for (const auto& step : key.at("search").at("trace")) {
            order.push_back(step.at("name"));
        }
        orders.push_back(order);
    }
    CHECK(orders.at(0).size() == 4);
    CHECK(orders.at(0) == orders.at(1));
}

}  // namespace tune_search_test
