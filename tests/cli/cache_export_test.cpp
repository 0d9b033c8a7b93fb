// `spvtune cache export DIR --to OUT`: a release directory holding only the cache files, their
// journals folded in, each verified; links in DIR never followed, a non-empty OUT refused.
#include <filesystem>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/cache/cache_file.hpp>
#include <spvtune/cache/cache_file_store.hpp>
#include <spvtune/cache/cache_format.hpp>
#include <spvtune/cache/cache_location.hpp>

#include "cache/cache_samples.hpp"
#include "cache/temp_directory.hpp"
#include "spvtune_run.hpp"

namespace cache_export_test {

using namespace spvtune;
using namespace spvtune::tune::testing;
using spvtune::test::contains;
using spvtune::test::run_spvtune;
namespace fs = std::filesystem;

namespace {

// A tuned directory as a run leaves it: a cache file whose last saves are in its journal, the
// lock, a pipeline cache, compiled GLSL and the backup of a corrupt file.
struct TunedDirectory {
    TempDirectory scratch;
    fs::path directory = scratch.path() / "tuned";
    fs::path output = scratch.path() / "release";
    fs::path file = directory / cache::cache_file_name(sample_hardware());

    TunedDirectory() {
        cache::CacheFileStore store(directory);
        for (const std::string key : {"1", "2", "3"}) {
            REQUIRE(store
                        .save(sample_hardware(), sample_address(key), sample_candidates(),
                              "n=" + key, sample_entry())
                        .stored);
        }
        REQUIRE(fs::exists(directory / (file.filename().string() + ".journal")));
        write_bytes(directory / (sample_hardware().key + ".pipelines"), "SPVTPIPE");
        fs::create_directories(directory / "glsl");
        write_bytes(directory / "glsl" / "0123.json", "{}");
        write_bytes(directory / "x.corrupt-20261129T000000Z.json", "{");
    }

    test::SpvtuneRun export_to(std::vector<std::string> extra = {}) {
        std::vector<std::string> args{"cache", "export", directory.string(), "--to",
                                      output.string()};
        args.insert(args.end(), extra.begin(), extra.end());
        return run_spvtune(scratch, args);
    }
};

std::vector<std::string> names_in(const fs::path& directory) {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(directory)) {
        names.push_back(entry.path().filename().string());
    }
    return names;
}

}  // namespace

TEST_CASE("cache export writes only the cache files, journals folded in, and leaves DIR alone") {
    TunedDirectory tuned;
    const std::string journal = read_bytes(tuned.file.string() + ".journal");
    const test::SpvtuneRun run = tuned.export_to();
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    CHECK(names_in(tuned.output) == std::vector<std::string>{tuned.file.filename().string()});
    const fs::path exported = tuned.output / tuned.file.filename();
    CHECK(contains(run.out, exported.string() + ": 3 entries, verified"));
    // The file alone holds every entry, the journal's too.
    CHECK(cache::read_cache_file(exported).entry_count() == 3);
    CHECK(read_bytes(exported) == cache::serialize_cache(cache::read_cache_file(tuned.file)));
    CHECK(read_bytes(tuned.file.string() + ".journal") == journal);
}

TEST_CASE("cache export refuses a link in the directory and writes nothing") {
    TunedDirectory tuned;
    const fs::path elsewhere = tuned.scratch.path() / "elsewhere.json";
    fs::copy_file(tuned.file, elsewhere);
    fs::create_symlink(elsewhere, tuned.directory / "linked-gpu-00000000000000cc.json");
    const test::SpvtuneRun run = tuned.export_to();
    CHECK(run.exit_code == 2);
    CHECK(contains(run.err, "linked-gpu-00000000000000cc.json is a symbolic link"));
    CHECK_FALSE(fs::exists(tuned.output));
}

TEST_CASE("cache export refuses a journal that is a link and writes nothing") {
    TunedDirectory tuned;
    const fs::path journal = tuned.file.string() + ".journal";
    const fs::path elsewhere = tuned.scratch.path() / "elsewhere.journal";
    fs::rename(journal, elsewhere);
    fs::create_symlink(elsewhere, journal);
    const test::SpvtuneRun run = tuned.export_to();
    CHECK(run.exit_code == 2);
    CHECK(contains(run.err, journal.filename().string() + " is a symbolic link"));
    CHECK_FALSE(fs::exists(tuned.output));
}

TEST_CASE("cache export refuses an invalid cache file and writes nothing") {
    TunedDirectory tuned;
    write_bytes(tuned.directory / "broken.json", "{\"format\": \"spvtune-cache\"");
    const test::SpvtuneRun run = tuned.export_to();
    CHECK(run.exit_code == 2);
    CHECK(contains(run.err, "broken.json"));
    CHECK_FALSE(fs::exists(tuned.output));
}

TEST_CASE("cache export refuses a non-empty release directory unless --force") {
    TunedDirectory tuned;
    fs::create_directories(tuned.output);
    write_bytes(tuned.output / "notes.txt", "mine");
    const test::SpvtuneRun refused = tuned.export_to();
    CHECK(refused.exit_code == 2);
    CHECK(contains(refused.err, tuned.output.string() + ": not empty"));
    CHECK(names_in(tuned.output) == std::vector<std::string>{"notes.txt"});

    const test::SpvtuneRun forced = tuned.export_to({"--force"});
    REQUIRE_MESSAGE(forced.exit_code == 0, forced.err);
    CHECK(cache::read_cache_file(tuned.output / tuned.file.filename()).entry_count() == 3);
    CHECK(read_bytes(tuned.output / "notes.txt") == "mine");
}

}  // namespace cache_export_test
