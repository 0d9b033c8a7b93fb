// Every shipped problem description passes `spvtune check`, and tuning its keys, smallest first,
// on the default device (lavapipe in CI) with the validation layer on gives every candidate the
// reference's output on the first key it can run: the kernels' correctness test. Few samples:
// nothing here is about timing.

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "cli/spvtune_run.hpp"

namespace shipped_configs_test {

using spvtune::test::contains;
using spvtune::test::SpvtuneRun;
using spvtune::tune::testing::read_bytes;
using spvtune::tune::testing::TempDirectory;
namespace fs = std::filesystem;

namespace {

const fs::path config_dir{SPVTUNE_CONFIG_DIR};

// The statuses of a candidate whose output was compared with the reference and matched.
const std::set<std::string> compared_statuses = {"winner", "tied", "ok"};

// The configs this suite tunes, one test case each; the last test case keeps the list complete.
const std::vector<std::string> shipped = {"demo.json",
                                          "elementwise.json",
                                          "glsl_variants.json",
                                          "macro_reduction.json",
                                          "matmul.json",
                                          "reduction.json",
                                          "saxpy.json",
                                          "stencil.json",
                                          "synthetic_search.json",
                                          "transpose.json"};

/// The listed keys as --key filters, fewest elements (product of the integer values) first.
std::vector<std::string> keys_smallest_first(const nlohmann::json& problem) {
    std::vector<std::pair<std::uint64_t, std::string>> keys;
    for (const auto& key : problem.at("keys").at("list")) {
        std::uint64_t size = 1;
        std::string filter;
        for (const auto& [name, value] : key.items()) {
            if (value.is_number_integer()) {
                size *= value.get<std::uint64_t>();
            }
            filter += (filter.empty() ? "" : ",") + name + "=" + value.dump();
        }
        keys.emplace_back(size, filter);
    }
    std::stable_sort(keys.begin(), keys.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::string> filters;
    for (auto& [size, filter] : keys) {
        filters.push_back(std::move(filter));
    }
    return filters;
}

/// How many candidates each config's grids and grid-only constraints expand to (every key lists
/// them all; a constraint on a key parameter skips a candidate for some keys).
const std::map<std::string, std::size_t> expected_candidates = {
    {"demo.json", 5},           {"elementwise.json", 10},
    {"glsl_variants.json", 14}, {"macro_reduction.json", 5},
    {"matmul.json", 17},        {"reduction.json", 35},
    {"saxpy.json", 4},          {"stencil.json", 10},
    {"transpose.json", 10}};

/// The candidate families that only check the others (`reference_only`): never compared with
/// the reference, and skipped as candidates with that reason.
std::set<std::string> reference_only_families(const nlohmann::json& problem) {
    std::set<std::string> families;
    for (const auto& family : problem.at("candidates")) {
        if (family.value("reference_only", false)) {
            families.insert(family.at("name").get<std::string>());
        }
    }
    return families;
}

/// The capabilities each candidate family requires (`requires`), by family name.
std::map<std::string, std::vector<std::string>> family_requirements(const nlohmann::json& problem) {
    std::map<std::string, std::vector<std::string>> requirements;
    for (const auto& family : problem.at("candidates")) {
        requirements[family.at("name")] = family.value("requires", std::vector<std::string>{});
    }
    return requirements;
}

/// The capabilities `spvtune devices --json` lists for the device named `device`.
std::vector<std::string> device_capabilities(const TempDirectory& scratch,
                                             const std::string& device) {
    const SpvtuneRun run = spvtune::test::run_spvtune(scratch, {"devices", "--json"});
    REQUIRE(run.exit_code == 0);
    for (const auto& listed : nlohmann::json::parse(run.out)) {
        if (listed.at("device_name") == device) {
            return listed.at("capabilities");
        }
    }
    FAIL("spvtune devices does not list " << device);
    return {};
}

struct ValidationOn {
    ValidationOn() { ::setenv("SPVTUNE_VALIDATION", "1", 1); }
    ~ValidationOn() { ::unsetenv("SPVTUNE_VALIDATION"); }
    ValidationOn(const ValidationOn&) = delete;
    ValidationOn& operator=(const ValidationOn&) = delete;
};

/// Tunes `key` of `config` with few samples; the key's report.
nlohmann::json tune_key(const TempDirectory& scratch, const fs::path& config,
                        const std::string& key) {
    const fs::path report = scratch.path() / "r.json";
    const SpvtuneRun run = spvtune::test::run_spvtune(
        scratch, {"tune", config.string(), "--key", key, "--cache-dir",
                  (scratch.path() / "cache").string(), "--json", report.string(), "--samples", "2",
                  "--min-samples", "2", "--warmup", "0", "--min-sample-ms", "0.05"});
    CAPTURE(key);
    REQUIRE_MESSAGE(run.exit_code == 0, run.out << run.err);
    CHECK_MESSAGE(!contains(run.err, "validation"), run.err);
    const auto keys = nlohmann::json::parse(read_bytes(report)).at("problems").at(0).at("keys");
    REQUIRE(keys.size() == 1);
    CHECK(keys.at(0).at("status") == "tuned");
    CHECK_FALSE(keys.at(0).value("winner", std::string{}).empty());
    return keys.at(0);
}

/// Tunes the keys smallest first until every candidate the device supports has been compared
/// with the reference once. A candidate may be skipped for a key only by one of its constraints
/// on the key's parameters, or (for every key) for a capability the device lacks.
void check_and_tune_until_all_compared(const std::string& name) {
    const fs::path config = config_dir / name;
    const ValidationOn validation;
    TempDirectory scratch;

    // The scratch cache directory also holds compiled GLSL candidates, so nothing goes to $HOME.
    const std::string cache_dir = (scratch.path() / "cache").string();
    const SpvtuneRun check =
        spvtune::test::run_spvtune(scratch, {"check", config.string(), "--cache-dir", cache_dir});
    CHECK_MESSAGE(check.exit_code == 0, check.out << check.err);

    const nlohmann::json problem = nlohmann::json::parse(read_bytes(config));
    const auto requirements = family_requirements(problem);
    const auto reference_only = reference_only_families(problem);
    std::string device;
    std::vector<std::string> capabilities;
    std::map<std::string, bool> compared;  // candidate -> compared with the reference yet
    for (const std::string& key : keys_smallest_first(problem)) {
        CAPTURE(key);
        const nlohmann::json tuned = tune_key(scratch, config, key);
        if (device.empty()) {
            device = nlohmann::json::parse(read_bytes(scratch.path() / "r.json"))
                         .at("device")
                         .at("device_name");
            capabilities = device_capabilities(scratch, device);
        }
        const auto& candidates = tuned.at("candidates");
        CHECK(candidates.size() == expected_candidates.at(name));
        for (const auto& candidate : candidates) {
            const std::string candidate_name = candidate.at("name");
            CAPTURE(candidate.dump());
            std::optional<std::string> missing;
            for (const std::string& capability :
                 requirements.at(candidate_name.substr(0, candidate_name.find('[')))) {
                if (!missing && std::ranges::find(capabilities, capability) == capabilities.end()) {
                    missing = capability;
                }
            }
            if (reference_only.contains(candidate_name.substr(0, candidate_name.find('[')))) {
                CHECK(candidate.at("status") == "skipped");
                CHECK(candidate.value("reason", std::string{}) ==
                      "reference only: it checks the others and is never the winner");
                continue;
            }
            if (missing) {
                CHECK(candidate.at("status") == "skipped");
                CHECK(candidate.value("reason", std::string{}) ==
                      "needs " + *missing + ", which " + device + " lacks");
                continue;
            }
            if (candidate.at("status") == "skipped") {
                CHECK(candidate.value("reason", std::string{}).starts_with("constraint '"));
                compared.try_emplace(candidate_name, false);
                continue;
            }
            CHECK(compared_statuses.contains(candidate.at("status").get<std::string>()));
            CHECK(candidate.contains("rank"));
            compared[candidate_name] = true;
        }
        if (std::ranges::all_of(compared, [](const auto& entry) { return entry.second; })) {
            break;
        }
    }
    for (const auto& [candidate, was_compared] : compared) {
        CHECK_MESSAGE(was_compared, candidate << " was skipped for every key");
    }
}

}  // namespace

TEST_CASE("configs/demo.json passes check and every candidate matches the reference") {
    check_and_tune_until_all_compared("demo.json");
}

TEST_CASE("configs/elementwise.json passes check and every candidate matches the reference") {
    check_and_tune_until_all_compared("elementwise.json");
}

TEST_CASE("configs/glsl_variants.json passes check and every candidate matches the reference") {
    check_and_tune_until_all_compared("glsl_variants.json");
}

TEST_CASE("configs/macro_reduction.json passes check and every candidate matches the reference") {
    check_and_tune_until_all_compared("macro_reduction.json");
}

TEST_CASE("configs/macro_reduction.json's reference sums every value of its largest key") {
    // llvmpipe ends the loops of one shader invocation after 65535 iterations in all: a reference
    // that added all n values in one invocation summed the first 65535 of n = 1048576, and every
    // tree sum was called wrong against it.
    const ValidationOn validation;
    TempDirectory scratch;
    const nlohmann::json tuned =
        tune_key(scratch, config_dir / "macro_reduction.json", "n=1048576");
    for (const auto& candidate : tuned.at("candidates")) {
        CAPTURE(candidate.dump());
        if (candidate.at("name") != "serial") {
            CHECK(compared_statuses.contains(candidate.at("status").get<std::string>()));
        }
    }
}

TEST_CASE("configs/matmul.json passes check and every candidate matches the reference") {
    check_and_tune_until_all_compared("matmul.json");
}

TEST_CASE("configs/reduction.json passes check and every candidate matches the reference") {
    check_and_tune_until_all_compared("reduction.json");
}

TEST_CASE("configs/saxpy.json passes check and every candidate matches the reference") {
    check_and_tune_until_all_compared("saxpy.json");
}

TEST_CASE("configs/stencil.json passes check and every candidate matches the reference") {
    check_and_tune_until_all_compared("stencil.json");
}

TEST_CASE("configs/transpose.json passes check and every candidate matches the reference") {
    check_and_tune_until_all_compared("transpose.json");
}

// 1,296 points: tuned as it ships, by the local search its size selects. Every point it measured
// matched the reference (none failed), the others were never run, and the trace lists them. How
// many it measures depends on the machine's noise (a disturbed reading can pass for a new best and
// earn more restarts). With 4 restarts of patience: 93-285 here under two busy loops, 376 once on
// a CI runner; with 12: 176-272 here, 209-301 under two busy loops. The CI runner read 1.3x this
// machine's loaded count (376 against 285), and a busier day more: fewer than three quarters of
// the space still tells a local search from an exhaustive one, with room for that.
TEST_CASE("configs/synthetic_search.json is searched (bayes) and every measured point matches" *
          doctest::test_suite("timing")) {
    const fs::path config = config_dir / "synthetic_search.json";
    const ValidationOn validation;
    TempDirectory scratch;
    const SpvtuneRun check = spvtune::test::run_spvtune(
        scratch, {"check", config.string(), "--cache-dir", (scratch.path() / "cache").string()});
    CHECK_MESSAGE(check.exit_code == 0, check.out << check.err);
    const nlohmann::json tuned = tune_key(scratch, config, "n=4096");
    const nlohmann::json& search = tuned.at("search");
    CHECK(search.at("strategy") == "bayes");
    CHECK(search.at("runnable") == 1296);
    CHECK(search.at("measured") < search.at("runnable").get<std::size_t>() * 3 / 4);
    CHECK(search.at("trace").size() == search.at("measured"));
    std::size_t measured = 0;
    for (const auto& candidate : tuned.at("candidates")) {
        const std::string status = candidate.at("status");
        CAPTURE(candidate.dump());
        CHECK(
            std::set<std::string>{"winner", "tied", "ok", "unchecked", "not run"}.contains(status));
        measured += status == "not run" ? 0 : 1;
        if (status == "unchecked") {
            // Read once, far behind the best, so never checked: its one reading is reported.
            CHECK(candidate.at("samples_ns").size() == 1);
            const auto& steps = search.at("trace");
            CHECK(std::ranges::any_of(steps, [&](const nlohmann::json& step) {
                return step.at("index") == candidate.at("index") && step.value("unchecked", false);
            }));
        }
    }
    CHECK(measured == search.at("measured"));
}

TEST_CASE("every problem in configs/ has a test case above") {
    std::set<std::string> found;
    for (const auto& entry : fs::directory_iterator(config_dir)) {
        if (entry.path().extension() == ".json") {
            found.insert(entry.path().filename().string());
        }
    }
    CHECK(found == std::set<std::string>(shipped.begin(), shipped.end()));
}

}  // namespace shipped_configs_test
