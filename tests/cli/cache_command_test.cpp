#include <cstdlib>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/cache/cache_file.hpp>
#include <spvtune/cache/cache_file_store.hpp>
#include <spvtune/cache/cache_location.hpp>

#include "cache/cache_samples.hpp"
#include "cache/subprocess.hpp"
#include "cache/temp_directory.hpp"

namespace cache_command_test {

using namespace spvtune::tune;

using namespace spvtune::cache;
using namespace spvtune::tune::testing;
namespace fs = std::filesystem;

namespace {

struct Run {
    int exit_code = 0;
    std::string out;
    std::string err;
};

Run run_spvtune(const TempDirectory& scratch, std::vector<std::string> args) {
    args.insert(args.begin(), SPVTUNE_BINARY);
    const fs::path err_file = scratch.path() / "stderr.txt";
    Subprocess child(args, err_file);
    Run run;
    run.out = child.read_stdout();
    run.exit_code = child.wait();
    run.err = read_bytes(err_file);
    return run;
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// A cache directory with one file for sample_hardware(): matmul keys 64 and 128, reduce key 7.
struct CacheFixture {
    TempDirectory scratch;
    TempDirectory directory;
    fs::path file = directory.path() / cache_file_name(sample_hardware());

    CacheFixture() {
        // As `tune` stores entries by default: `show` prints a margin from the runner-up's
        // statistics the entry keeps.
        CacheFileStore store(directory.path());
        for (const auto& [tuner, key] :
             {std::pair{"matmul", "64"}, {"matmul", "128"}, {"reduce", "7"}}) {
            REQUIRE(store
                        .save(sample_hardware(), sample_address(key, tuner), sample_candidates(),
                              "n=" + std::string(key), sample_entry("tiled_16x16"))
                        .stored);
        }
    }

    Run run(std::vector<std::string> args) {
        args.insert(args.begin(), {"cache", "--cache-dir", directory.path().string()});
        return run_spvtune(scratch, std::move(args));
    }
};

}  // namespace

TEST_CASE("cache list shows each file's hardware, tuners and entry counts") {
    CacheFixture cache;
    write_bytes(cache.directory.path() / "x.corrupt-20261129T000000Z.json", "{");
    const Run run = cache.run({"list"});
    CHECK(run.exit_code == 0);
    CHECK(contains(run.out, "cache directory: " + cache.directory.path().string()));
    CHECK(contains(run.out, cache.file.filename().string()));
    CHECK(contains(run.out, "Test GPU \"Ti\" ü (driver 1.2.3)"));
    CHECK(contains(run.out, "entries   3"));
    CHECK(contains(run.out, "matmul (2 entries), reduce (1 entry)"));
    CHECK(contains(run.out, "x.corrupt-20261129T000000Z.json  (backup of a corrupt cache file)"));
    CHECK(run.err.empty());
}

TEST_CASE("cache list on an empty or missing directory says so and succeeds") {
    TempDirectory scratch;
    const Run run =
        run_spvtune(scratch, {"cache", "list", "--cache-dir", (scratch.path() / "none").string()});
    CHECK(run.exit_code == 0);
    CHECK(contains(run.out, "no cache files"));
}

TEST_CASE("cache list reports an invalid file and exits 2, listing the rest") {
    CacheFixture cache;
    write_bytes(cache.directory.path() / "broken.json", "{\"format\": 1, \"schema_version\": 1}");
    const Run run = cache.run({"list"});
    CHECK(run.exit_code == 2);
    CHECK(contains(run.err, "broken.json: /format: expected a string, found a number"));
    CHECK(contains(run.out, "matmul (2 entries)"));
}

TEST_CASE("the cache directory comes from SPVTUNE_CACHE_DIR when --cache-dir is absent") {
    CacheFixture cache;
    ::setenv("SPVTUNE_CACHE_DIR", cache.directory.path().c_str(), 1);
    const Run run = run_spvtune(cache.scratch, {"cache", "list"});
    ::unsetenv("SPVTUNE_CACHE_DIR");
    CHECK(run.exit_code == 0);
    CHECK(contains(run.out, "cache directory: " + cache.directory.path().string()));
    CHECK(contains(run.out, "entries   3"));
}

TEST_CASE("cache show prints one row per entry with winner, median, runner-up and margin") {
    CacheFixture cache;
    // By its name in the cache directory, and by path.
    for (const std::string& file : {sample_hardware().key, cache.file.string()}) {
        const Run run = cache.run({"show", file});
        CHECK(run.exit_code == 0);
        CHECK(contains(run.out, "TUNER   KEY    WINNER       MEDIAN   RUNNER-UP   MARGIN"));
        // sample_entry(): winner median 1017.75 ns over 31 samples, runner-up tiled_32x8 at
        // 1020.25 ns over 17, tied.
        CHECK(contains(
            run.out, "matmul  n=64   tiled_16x16  1.02 us  tiled_32x8  +0.2% (tied, 17 samples)"));
        CHECK(contains(run.out, "matmul  n=128  tiled_16x16"));
        CHECK(contains(run.out, "reduce  n=7    tiled_16x16"));
        CHECK(contains(run.out, "3 entries"));
    }
}

TEST_CASE("cache show --json prints the file's document") {
    CacheFixture cache;
    // Two of the fixture's entries are in the file's journal: show has them too.
    const Run run = cache.run({"show", cache.file.string(), "--json"});
    CHECK(run.exit_code == 0);
    CHECK(compact_cache_file(cache.file));
    CHECK(run.out == read_bytes(cache.file));
}

TEST_CASE("cache show on a missing or invalid file names it and exits 2") {
    CacheFixture cache;
    Run run = cache.run({"show", "nonexistent"});
    CHECK(run.exit_code == 2);
    CHECK(contains(run.err, "nonexistent"));
    CHECK(contains(run.err, "no such cache file"));

    auto json = nlohmann::json::parse(read_bytes(cache.file));
    json["tuners"]["matmul"]["0123456789abcdef"]["entries"]["{\"n\":\"64\"}"]["winner"]["index"] =
        "one";
    write_bytes(cache.file, json.dump(2));
    run = cache.run({"show", cache.file.string()});
    CHECK(run.exit_code == 2);
    CHECK(contains(run.err,
                   cache.file.string() +
                       ": /tuners/matmul/0123456789abcdef/entries/{\"n\":\"64\"}/winner/index: "
                       "expected a non-negative integer, found a string"));
    CHECK(run.out.empty());
}

TEST_CASE("cache clear removes what --tuner and --key select and reports it") {
    CacheFixture cache;
    Run run = cache.run({"clear", "--tuner", "matmul", "--key", "n=64"});
    CHECK(run.exit_code == 0);
    CHECK(contains(run.out, "removed 1 entry"));
    CHECK(contains(run.out, "matmul  n=64"));
    CacheDocument document = read_cache_file(cache.file);
    CHECK(document.entry_count() == 2);
    CHECK(document.find(sample_address("64")) == nullptr);

    run = cache.run({"clear", "--key", "{\"n\":\"7\"}", sample_hardware().key});
    CHECK(run.exit_code == 0);
    CHECK(contains(run.out, "reduce  n=7"));
    CHECK(read_cache_file(cache.file).entry_count() == 1);

    run = cache.run({"clear", "--tuner", "no-such-tuner"});
    CHECK(run.exit_code == 2);
    CHECK(contains(run.out, "no matching entries"));
    CHECK(contains(run.err, "spvtune: error: no cache entry matches --tuner no-such-tuner"));

    run = cache.run({"clear"});
    CHECK(run.exit_code == 0);
    CHECK(contains(run.out, "removed 1 entry"));
    document = read_cache_file(cache.file);
    CHECK(document.entry_count() == 0);
    CHECK(document.hardware.key == sample_hardware().key);
}

TEST_CASE("cache clear --key takes what tune --key takes: any order, part of a key, spaces") {
    CacheFixture cache;
    {
        CacheFileStore store(cache.directory.path());
        for (const char* k : {"120", "64"}) {
            const std::string key_json = std::string("{\"K\":") + k + ",\"M\":200,\"N\":152}";
            REQUIRE(store
                        .save(sample_hardware(), EntryAddress{"matmul3", 7, key_json},
                              sample_candidates(), std::string("K=") + k + ",M=200,N=152",
                              sample_entry("tiled_16x16"))
                        .stored);
        }
    }
    Run run = cache.run({"clear", "--key", "N=152,K=120,M=200"});
    CHECK_MESSAGE(run.exit_code == 0, run.err);
    CHECK(contains(run.out, "removed 1 entry"));
    CHECK(contains(run.out, "matmul3  K=120,M=200,N=152"));
    run = cache.run({"clear", "--tuner", "matmul3", "--key", "M = 200, N=152"});
    CHECK_MESSAGE(run.exit_code == 0, run.err);
    CHECK(contains(run.out, "matmul3  K=64,M=200,N=152"));
    CHECK(read_cache_file(cache.file).entry_count() == 3);  // the fixture's own entries

    // Nothing left to match: an error, and the file is left as it was.
    const std::string before = read_bytes(cache.file);
    run = cache.run({"clear", "--key", "M=200"});
    CHECK(run.exit_code == 2);
    CHECK(contains(run.err, "spvtune: error: no cache entry matches --key M=200"));
    CHECK(read_bytes(cache.file) == before);
    run = cache.run({"clear", "--key", "M"});
    CHECK(run.exit_code == 2);
    CHECK(contains(run.err, "expected name=value"));
}

TEST_CASE("cache clear never touches an invalid or newer file and exits 2") {
    CacheFixture cache;
    const std::string corrupt = "{\"format\": \"spvtune-cache\",";
    const fs::path broken = cache.directory.path() / "broken.json";
    write_bytes(broken, corrupt);
    Run run = cache.run({"clear"});
    CHECK(run.exit_code == 2);
    CHECK(contains(run.err, broken.string()));
    CHECK(read_bytes(broken) == corrupt);
    CHECK(read_cache_file(cache.file).entry_count() == 0);  // the valid file was still cleared

    auto json = nlohmann::json::parse(read_bytes(cache.file));
    json["schema_version"] = 5;
    const std::string newer = json.dump(2);
    write_bytes(cache.file, newer);
    run = cache.run({"clear", cache.file.string()});
    CHECK(run.exit_code == 2);
    CHECK(contains(run.err, "newer spvtune"));
    CHECK(read_bytes(cache.file) == newer);

    run = cache.run({"clear", "missing.json"});
    CHECK(run.exit_code == 2);
    CHECK(contains(run.err, "no such cache file"));
}

TEST_CASE("cache without a subcommand is a usage error") {
    TempDirectory scratch;
    const Run bare = run_spvtune(scratch, {"cache"});
    CHECK(bare.exit_code == 2);
    CHECK(contains(bare.err, "Subcommands:"));
    CHECK(contains(bare.err, "clear"));
}

TEST_CASE("cache path names the directory and the selected device's file") {
    TempDirectory scratch;
    const fs::path directory = scratch.path() / "caches";
    Run run = run_spvtune(scratch, {"cache", "--cache-dir", directory.string(), "path"});
    REQUIRE(run.exit_code == 0);
    CHECK(contains(run.out, "directory  " + directory.string() + "\n"));
    CHECK(contains(run.out, "file       " + directory.string() + "/"));
    CHECK(contains(run.out, ".json  (not created yet)"));
    CHECK(contains(run.out, "hardware   "));
    CHECK_FALSE(fs::exists(directory));  // only reports; nothing is created

    // Once the file exists, its entry count is shown.
    const std::string out = run.out;
    const auto start = out.find("file       ") + 11;
    const fs::path file = out.substr(start, out.find("  (", start) - start);
    fs::create_directories(directory);
    write_bytes(file, "{}");
    run = run_spvtune(scratch, {"cache", "path", "--cache-dir", directory.string()});
    CHECK(run.exit_code == 2);
    CHECK(contains(run.err, file.string() + ": (document): expected a member"));

    run = run_spvtune(scratch, {"cache", "path", "--device", "no-such-device-anywhere"});
    CHECK(run.exit_code == 1);
    CHECK(run.err.starts_with(
        "spvtune: error: no device name contains 'no-such-device-anywhere'; available devices:\n"));
}

}  // namespace cache_command_test
