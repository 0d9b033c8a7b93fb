#pragma once

// What the `spvtune tune` tests share: a scratch cache directory, the run itself with the
// validation layer on, and readers of the --json report.

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "cache/temp_directory.hpp"
#include "spvtune_run.hpp"

namespace spvtune::test {

inline const std::string problems = SPVTUNE_CLI_PROBLEM_DIR;

/// A scratch directory with its own cache directory; every run has the validation layer on.
struct TuneFixture {
    tune::testing::TempDirectory scratch;
    std::filesystem::path cache = scratch.path() / "cache";
    std::filesystem::path report = scratch.path() / "report.json";

    TuneFixture() { ::setenv("SPVTUNE_VALIDATION", "1", 1); }
    ~TuneFixture() { ::unsetenv("SPVTUNE_VALIDATION"); }
    TuneFixture(const TuneFixture&) = delete;
    TuneFixture& operator=(const TuneFixture&) = delete;

    /// Tunes tests/cli/problems/`problem`.
    SpvtuneRun tune(const std::string& problem, std::vector<std::string> extra = {}) {
        return tune_file(problems + "/" + problem, std::move(extra));
    }

    /// Tunes the problem file at `path` (a test's own variant of a shared problem).
    SpvtuneRun tune_file(const std::filesystem::path& path, std::vector<std::string> extra = {}) {
        std::vector<std::string> args{"tune",         path.string(),  "--cache-dir",
                                      cache.string(), "--kernel-dir", SPVTUNE_CLI_TEST_KERNEL_DIR,
                                      "--json",       report.string()};
        args.insert(args.end(), extra.begin(), extra.end());
        SpvtuneRun run = run_spvtune(scratch, args);
        CHECK_MESSAGE(!contains(run.err, "validation"), run.err);
        return run;
    }

    /// The whole --json report of the last run.
    nlohmann::json report_json() const {
        return nlohmann::json::parse(tune::testing::read_bytes(report));
    }

    nlohmann::json keys() const { return report_json().at("problems").at(0).at("keys"); }

    /// The files of the cache directory whose names end in `extension` (".pipelines").
    std::vector<std::filesystem::path> files_ending_in(const std::string& extension) const {
        std::vector<std::filesystem::path> files;
        if (std::filesystem::exists(cache)) {
            for (const auto& entry : std::filesystem::directory_iterator(cache)) {
                if (entry.path().extension() == extension) {
                    files.push_back(entry.path());
                }
            }
        }
        return files;
    }

    std::vector<std::filesystem::path> cache_files() const { return files_ending_in(".json"); }
};

inline const nlohmann::json& candidate(const nlohmann::json& key, const std::string& name) {
    for (const auto& c : key.at("candidates")) {
        if (c.at("name") == name) {
            return c;
        }
    }
    FAIL("no candidate " << name << " in " << key.dump());
    throw std::logic_error("unreachable");
}

/// The key's candidates that have `member` (e.g. "rank": those the race ranked), in file order.
inline std::vector<nlohmann::json> candidates_with(const nlohmann::json& key, const char* member) {
    std::vector<nlohmann::json> found;
    for (const auto& c : key.at("candidates")) {
        if (c.contains(member)) {
            found.push_back(c);
        }
    }
    return found;
}

inline bool measured_anything(const nlohmann::json& key) {
    for (const auto& c : key.at("candidates")) {
        if (c.contains("samples_ns") || c.contains("warmup_ns")) {
            return true;
        }
    }
    return false;
}

}  // namespace spvtune::test
