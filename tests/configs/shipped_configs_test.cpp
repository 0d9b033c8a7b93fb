// Every shipped problem description passes `spvtune check`, and tuning its smallest key on the
// default device (lavapipe in CI) with the validation layer on gives every candidate the
// reference's output: the kernels' correctness test. Few samples: nothing here is about timing.

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

using spvtune::test::contains;
using spvtune::test::SpvtuneRun;
using spvtune::tune::testing::read_bytes;
using spvtune::tune::testing::TempDirectory;
namespace fs = std::filesystem;

namespace {

const fs::path config_dir{SPVTUNE_CONFIG_DIR};

// The configs this suite tunes, one test case each; the last test case keeps the list complete.
const std::vector<std::string> shipped = {"demo.json",    "elementwise.json", "glsl_variants.json",
                                          "matmul.json",  "reduction.json",   "saxpy.json",
                                          "stencil.json", "transpose.json"};

/// The listed key with the fewest elements (product of its integer values), as a --key filter.
std::string smallest_key(const nlohmann::json& problem) {
    std::string best;
    std::uint64_t best_size = std::numeric_limits<std::uint64_t>::max();
    for (const auto& key : problem.at("keys").at("list")) {
        std::uint64_t size = 1;
        std::string filter;
        for (const auto& [name, value] : key.items()) {
            if (value.is_number_integer()) {
                size *= value.get<std::uint64_t>();
            }
            filter += (filter.empty() ? "" : ",") + name + "=" + value.dump();
        }
        if (size < best_size) {
            best_size = size;
            best = filter;
        }
    }
    return best;
}

/// How many candidates each config's grids and constraints expand to (the same for every key:
/// no shipped constraint names a key parameter).
const std::map<std::string, std::size_t> expected_candidates = {
    {"demo.json", 5},     {"elementwise.json", 10}, {"glsl_variants.json", 9},
    {"matmul.json", 8},   {"reduction.json", 25},   {"saxpy.json", 4},
    {"stencil.json", 10}, {"transpose.json", 10}};

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

void check_and_tune_smallest_key(const std::string& name) {
    const fs::path config = config_dir / name;
    const ValidationOn validation;
    TempDirectory scratch;

    // The scratch cache directory: check keeps compiled GLSL candidates there, as tune does.
    const std::string cache_dir = (scratch.path() / "cache").string();
    const SpvtuneRun check =
        spvtune::test::run_spvtune(scratch, {"check", config.string(), "--cache-dir", cache_dir});
    CHECK_MESSAGE(check.exit_code == 0, check.out << check.err);

    const std::string key = smallest_key(nlohmann::json::parse(read_bytes(config)));
    REQUIRE_FALSE(key.empty());
    const fs::path report = scratch.path() / "r.json";
    const SpvtuneRun run = spvtune::test::run_spvtune(
        scratch,
        {"tune", config.string(), "--key", key, "--cache-dir", cache_dir, "--json", report.string(),
         "--samples", "2", "--min-samples", "2", "--warmup", "0", "--min-sample-ms", "0.05"});
    CAPTURE(key);
    REQUIRE_MESSAGE(run.exit_code == 0, run.out << run.err);
    CHECK_MESSAGE(!contains(run.err, "validation"), run.err);

    const auto report_json = nlohmann::json::parse(read_bytes(report));
    const auto keys = report_json.at("problems").at(0).at("keys");
    REQUIRE(keys.size() == 1);
    const auto& tuned = keys.at(0);
    CHECK(tuned.at("status") == "tuned");
    CHECK_FALSE(tuned.value("winner", std::string{}).empty());

    // Each candidate is compared with the reference and measured, unless its family requires a
    // capability the device lacks: then it is skipped for exactly that reason.
    const std::string device = report_json.at("device").at("device_name");
    const std::vector<std::string> capabilities = device_capabilities(scratch, device);
    const auto requirements = family_requirements(nlohmann::json::parse(read_bytes(config)));
    const auto& candidates = tuned.at("candidates");
    CHECK(candidates.size() == expected_candidates.at(name));
    std::size_t compared = 0;
    std::size_t unsupported = 0;
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
        if (missing) {
            ++unsupported;
            CHECK(candidate.at("status") == "skipped");
            CHECK(candidate.value("reason", std::string{}) ==
                  "needs " + *missing + ", which " + device + " lacks");
            continue;
        }
        const std::set<std::string> compared_statuses = {"winner", "tied", "ok"};
        CHECK(compared_statuses.contains(candidate.at("status").get<std::string>()));
        compared += candidate.contains("rank") ? 1 : 0;
    }
    CHECK(compared == expected_candidates.at(name) - unsupported);
}

}  // namespace

TEST_CASE("configs/demo.json passes check and every candidate matches the reference") {
    check_and_tune_smallest_key("demo.json");
}

TEST_CASE("configs/elementwise.json passes check and every candidate matches the reference") {
    check_and_tune_smallest_key("elementwise.json");
}

TEST_CASE("configs/glsl_variants.json passes check and every candidate matches the reference") {
    check_and_tune_smallest_key("glsl_variants.json");
}

TEST_CASE("configs/matmul.json passes check and every candidate matches the reference") {
    check_and_tune_smallest_key("matmul.json");
}

TEST_CASE("configs/reduction.json passes check and every candidate matches the reference") {
    check_and_tune_smallest_key("reduction.json");
}

TEST_CASE("configs/saxpy.json passes check and every candidate matches the reference") {
    check_and_tune_smallest_key("saxpy.json");
}

TEST_CASE("configs/stencil.json passes check and every candidate matches the reference") {
    check_and_tune_smallest_key("stencil.json");
}

TEST_CASE("configs/transpose.json passes check and every candidate matches the reference") {
    check_and_tune_smallest_key("transpose.json");
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
