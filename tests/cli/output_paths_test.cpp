#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "tune_fixture.hpp"

namespace output_paths_test {

using namespace spvtune::test;
using spvtune::tune::testing::read_bytes;
using spvtune::tune::testing::write_bytes;
namespace fs = std::filesystem;

// Output paths never damage what is at them: a report through a symbolic link writes the file
// it points to, a device is written to and never replaced, `-` is stdout; a cache file that is
// a FIFO neither blocks nor is replaced.

namespace {

/// tune scale.json's smallest key with the report at `json`.
SpvtuneRun tune_with_report(TuneFixture& fixture, const std::string& json) {
    return run_spvtune(
        fixture.scratch,
        {"tune", problems + "/scale.json", "--cache-dir", fixture.cache.string(), "--kernel-dir",
         SPVTUNE_CLI_TEST_KERNEL_DIR, "--key", "n=16384", "--json", json});
}

mode_t mode_of(const fs::path& path, bool follow) {
    struct stat info {};
    REQUIRE((follow ? ::stat(path.c_str(), &info) : ::lstat(path.c_str(), &info)) == 0);
    return info.st_mode;
}

}  // namespace

TEST_CASE("--json through a symbolic link writes the file it points to and keeps the link") {
    TuneFixture fixture;
    const fs::path real = fixture.scratch.path() / "reports" / "real.json";
    fs::create_directories(real.parent_path());
    const fs::path link = fixture.scratch.path() / "link.json";
    fs::create_symlink(real, link);

    const SpvtuneRun run = tune_with_report(fixture, link.string());
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    CHECK(fs::is_symlink(link));
    CHECK(fs::read_symlink(link) == real);
    const auto report = nlohmann::json::parse(read_bytes(real));
    CHECK(report.at("problems").at(0).at("name") == "scale-test");
}

TEST_CASE("--json over an existing report keeps its permissions") {
    TuneFixture fixture;
    const fs::path file = fixture.scratch.path() / "private.json";
    write_bytes(file, "old");
    fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write);

    const SpvtuneRun run = tune_with_report(fixture, file.string());
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    CHECK((mode_of(file, false) & 0777) == 0600);
    CHECK(nlohmann::json::parse(read_bytes(file)).contains("problems"));
}

TEST_CASE("--json to a FIFO writes into it and never replaces it") {
    // A FIFO stands for every file that is not a regular one (/dev/null, /dev/stdout's target):
    // the report must go into it, and the node must stay.
    TuneFixture fixture;
    const fs::path fifo = fixture.scratch.path() / "report.fifo";
    REQUIRE(::mkfifo(fifo.c_str(), 0644) == 0);
    std::string received;
    std::thread reader([&] {
        std::ifstream in(fifo);  // blocks until spvtune opens the FIFO for writing
        received.assign(std::istreambuf_iterator<char>(in), {});
    });
    const SpvtuneRun run = tune_with_report(fixture, fifo.string());
    if (run.exit_code != 0) {
        // Unblock the reader if spvtune never opened the FIFO.
        std::ofstream unblock(fifo);
    }
    reader.join();
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    CHECK(fs::is_fifo(fifo));
    CHECK(nlohmann::json::parse(received).at("problems").at(0).at("name") == "scale-test");
    for (const auto& entry : fs::directory_iterator(fixture.scratch.path())) {
        CHECK_FALSE(contains(entry.path().filename().string(), ".tmp"));
    }
}

TEST_CASE("--json - writes the report to stdout and the tables to stderr") {
    TuneFixture fixture;
    const SpvtuneRun run = tune_with_report(fixture, "-");
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    const auto report = nlohmann::json::parse(run.out);  // nothing but the report
    CHECK(report.at("problems").at(0).at("keys").size() == 1);
    CHECK(contains(run.err, "winner"));
    CHECK_FALSE(fs::exists(fixture.scratch.path() / "-"));
}

TEST_CASE("a cache file that is a FIFO neither blocks tune nor is replaced") {
    TuneFixture fixture;
    // Learn the cache file's name, then put a FIFO in its place.
    REQUIRE(fixture.tune("scale.json", {"--key", "n=16384"}).exit_code == 0);
    const std::vector<fs::path> files = fixture.cache_files();
    REQUIRE(files.size() == 1);
    fs::remove(files[0]);
    REQUIRE(::mkfifo(files[0].c_str(), 0644) == 0);

    const SpvtuneRun run = fixture.tune("scale.json", {"--key", "n=16384", "--retune"});
    CHECK(contains(run.err, "a FIFO, not a regular file"));
    CHECK(fs::is_fifo(files[0]));

    const SpvtuneRun show = run_spvtune(fixture.scratch, {"cache", "show", files[0].string()});
    CHECK(show.exit_code != 0);
    CHECK(contains(show.err, "a FIFO, not a regular file"));
}

TEST_CASE("a cache file that is a symbolic link is replaced by the save, never its target") {
    // A link inside the cache directory may point at any file (docs/cache-format.md): it is
    // read, but the save replaces the link itself.
    TuneFixture fixture;
    REQUIRE(fixture.tune("scale.json", {"--key", "n=16384"}).exit_code == 0);
    const std::vector<fs::path> files = fixture.cache_files();
    REQUIRE(files.size() == 1);
    const fs::path shared = fixture.scratch.path() / "shared.json";
    fs::rename(files[0], shared);
    fs::create_symlink(shared, files[0]);
    const std::string before = read_bytes(shared);

    const SpvtuneRun run = fixture.tune("scale.json", {"--key", "n=32768"});
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    CHECK(fs::is_regular_file(fs::symlink_status(files[0])));
    CHECK(read_bytes(shared) == before);
    const std::string content = read_bytes(files[0]);
    CHECK(contains(content, "16384"));
    CHECK(contains(content, "32768"));
}

}  // namespace output_paths_test
