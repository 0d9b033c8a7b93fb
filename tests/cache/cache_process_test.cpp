#include <chrono>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/cache/cache_file.hpp>
#include <spvtune/cache/cache_location.hpp>

#include "cache/cache_samples.hpp"
#include "cache/subprocess.hpp"
#include "cache/temp_directory.hpp"

namespace cache_process_test {

using namespace spvtune::tune;

using namespace spvtune::cache;
using namespace spvtune::tune::testing;

namespace {

std::vector<std::string> writer_command(const std::filesystem::path& directory,
                                        const std::string& winner, const std::string& start_file,
                                        const std::vector<std::string>& keys) {
    std::vector<std::string> argv{SPVTUNE_CACHE_WRITER, directory.string(), winner, start_file};
    argv.insert(argv.end(), keys.begin(), keys.end());
    return argv;
}

// The writer's report: outcome word per key ("stored", "kept <winner>", ...).
std::map<std::string, std::string> outcomes(const std::string& report) {
    std::map<std::string, std::string> result;
    std::istringstream lines(report);
    std::string word, key, rest;
    while (lines >> word >> key) {
        std::getline(lines, rest);
        result[key] = word + rest;
    }
    return result;
}

std::filesystem::path cache_file(const std::filesystem::path& directory) {
    return directory / cache_file_name(sample_hardware());
}

}  // namespace

TEST_CASE("concurrent writer processes keep each other's keys, and the first of a shared key") {
    TempDirectory directory;
    const auto start = directory.path() / "start";
    constexpr int writers = 3;
    // Names of sample_candidates(): a winner is named after its candidate.
    const std::string winner_of[writers] = {"naive", "tiled_16x16", "tiled_32x8"};
    std::vector<std::unique_ptr<Subprocess>> children;
    for (int w = 0; w < writers; ++w) {
        std::vector<std::string> keys;
        for (int i = 0; i < 15; ++i) {
            keys.push_back("own-" + std::to_string(w) + "-" + std::to_string(i));
            keys.push_back("shared-" + std::to_string(i));
        }
        children.push_back(std::make_unique<Subprocess>(
            writer_command(directory.path(), winner_of[w], start.string(), keys)));
    }
    write_bytes(start, "go");  // all writers are waiting for this, so their saves overlap

    std::vector<std::map<std::string, std::string>> reports;
    for (auto& child : children) {
        reports.push_back(outcomes(child->read_stdout()));
        CHECK(child->wait() == 0);
    }

    const CacheDocument document = read_cache_file(cache_file(directory.path()));
    CHECK(document.entry_count() == writers * 15 + 15);
    for (int w = 0; w < writers; ++w) {
        for (int i = 0; i < 15; ++i) {
            const std::string key = "own-" + std::to_string(w) + "-" + std::to_string(i);
            CHECK(reports[w][key] == "stored");
            const CacheKeyRecord* record = document.find(sample_address(key));
            REQUIRE(record);
            CHECK(record->entry.winner_name == winner_of[w]);
        }
    }
    for (int i = 0; i < 15; ++i) {
        const std::string key = "shared-" + std::to_string(i);
        const CacheKeyRecord* record = document.find(sample_address(key));
        REQUIRE(record);
        const std::string winner = record->entry.winner_name;
        int stored = 0;
        for (int w = 0; w < writers; ++w) {
            CAPTURE(key);
            CAPTURE(reports[w][key]);
            if (reports[w][key] == "stored") {
                ++stored;
                CHECK(winner == winner_of[w]);
            } else {
                // Not silently dropped: told which winner was kept instead.
                CHECK(reports[w][key] == "kept " + winner);
            }
        }
        CHECK(stored == 1);
    }
}

TEST_CASE("a writer killed at any moment leaves a loadable file with every acknowledged key") {
    TempDirectory directory;
    std::mt19937 random(20261129);
    std::uniform_int_distribution<int> delay_us(0, 4000);
    std::set<std::string> acknowledged;
    int interrupted = 0;
    int mid_write = 0;
    for (int iteration = 0; iteration < 50; ++iteration) {
        std::vector<std::string> keys;
        for (int i = 0; i < 25; ++i) {
            keys.push_back("k" + std::to_string(iteration) + "-" + std::to_string(i));
        }
        Subprocess writer(writer_command(directory.path(), "tiled_32x8", "-", keys));
        // Kill it a random moment after its first save returned, so the kill lands among saves
        // rather than during process start-up.
        const std::string first = writer.read_line() + "\n";
        std::this_thread::sleep_for(std::chrono::microseconds(delay_us(random)));
        writer.kill();
        const auto report = outcomes(first + writer.read_stdout());
        if (writer.wait() != 0) {
            ++interrupted;
        }
        for (const auto& [key, outcome] : report) {
            REQUIRE(outcome == "stored");
            acknowledged.insert(key);
        }

        if (!files_containing(directory.path(), ".tmp-").empty()) {
            ++mid_write;  // killed between creating its temporary and renaming it
        }
        const auto file = cache_file(directory.path());
        if (!std::filesystem::exists(file)) {
            CHECK(acknowledged.empty());
            continue;
        }
        CAPTURE(iteration);
        const CacheDocument document = read_cache_file(file);  // throws if half-written
        for (const std::string& key : acknowledged) {
            CHECK(document.find(sample_address(key)) != nullptr);
        }
        CHECK(document.entry_count() >= acknowledged.size());
    }
    MESSAGE(interrupted << " of 50 writers killed before finishing, " << mid_write
                        << " iterations with a temporary left behind; " << acknowledged.size()
                        << " keys acknowledged");
    CHECK(interrupted > 0);

    // The next save clears the temporaries of killed writers.
    Subprocess last(writer_command(directory.path(), "tiled_32x8", "-", {"final"}));
    CHECK(outcomes(last.read_stdout())["final"] == "stored");
    CHECK(last.wait() == 0);
    CHECK(files_containing(directory.path(), ".tmp-").empty());
    CHECK(files_containing(directory.path(), ".corrupt-").empty());
}

}  // namespace cache_process_test
