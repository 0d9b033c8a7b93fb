// `spvtune cache merge`: cache directories from many machines become one, whatever their order,
// and nothing is written when a source is unreadable.
#include <filesystem>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <spvtune/cache/cache_file.hpp>
#include <spvtune/cache/cache_format.hpp>
#include <spvtune/cache/cache_location.hpp>

#include "cache/cache_samples.hpp"
#include "cache/temp_directory.hpp"
#include "spvtune_run.hpp"

namespace cache_merge_test {

using namespace spvtune;
using namespace spvtune::tune::testing;
using spvtune::test::contains;
using spvtune::test::run_spvtune;
namespace fs = std::filesystem;

namespace {

/// A cache directory holding one file for `hardware` with `entries` ({key, winner}); each
/// winner is a name of sample_candidates(), as readers require.
fs::path machine_directory(const TempDirectory& scratch, const std::string& name,
                           const tune::HardwareIdentity& hardware,
                           const std::vector<std::pair<std::string, std::string>>& entries) {
    const fs::path directory = scratch.path() / name;
    fs::create_directories(directory);
    cache::CacheDocument document = cache::make_cache_document(hardware);
    int seed = 1;
    for (const auto& [key, winner] : entries) {
        document.put(sample_address(key), sample_candidates(),
                     {"n=" + key, sample_entry(winner, seed++)});
    }
    write_bytes(directory / cache::cache_file_name(hardware), cache::serialize_cache(document));
    return directory;
}

}  // namespace

TEST_CASE("cache merge combines machines' directories, lists conflicts, and ignores order") {
    TempDirectory scratch;
    const auto gpu = sample_hardware();
    const auto other = sample_hardware("other-gpu-00000000000000bb");
    const fs::path a =
        machine_directory(scratch, "a", gpu, {{"1024", "tiled_16x16"}, {"2048", "naive"}});
    const fs::path b =
        machine_directory(scratch, "b", gpu, {{"1024", "tiled_32x8"}, {"4096", "naive"}});
    const fs::path c = machine_directory(scratch, "c", other, {{"1024", "tiled_16x16"}});
    const fs::path out1 = scratch.path() / "out1";
    const fs::path out2 = scratch.path() / "out2";

    const auto first =
        run_spvtune(scratch, {"cache", "merge", a.string(), b.string(), c.string(), "-o", out1});
    REQUIRE_MESSAGE(first.exit_code == 0, first.err);
    CHECK(contains(first.out, "1 conflicts"));
    CHECK(contains(first.out, "n=1024"));
    const auto second =
        run_spvtune(scratch, {"cache", "merge", c.string(), b.string(), a.string(), "-o", out2});
    REQUIRE_MESSAGE(second.exit_code == 0, second.err);

    for (const auto& hardware : {gpu, other}) {
        const std::string name = cache::cache_file_name(hardware);
        CHECK(read_bytes(out1 / name) == read_bytes(out2 / name));
    }
    const cache::CacheDocument merged = cache::read_cache_file(out1 / cache::cache_file_name(gpu));
    CHECK(merged.entry_count() == 3);
    CHECK(merged.find(sample_address("2048"))->entry.winner_name == "naive");
    CHECK(merged.find(sample_address("4096"))->entry.winner_name == "naive");
    CHECK(cache::read_cache_file(out1 / cache::cache_file_name(other)).entry_count() == 1);
}

TEST_CASE("cache merge keeps what the output directory held, and writes nothing on a bad source") {
    TempDirectory scratch;
    const auto gpu = sample_hardware();
    const fs::path out = machine_directory(scratch, "out", gpu, {{"8", "tiled_32x8"}});
    const fs::path a = machine_directory(scratch, "a", gpu, {{"16", "tiled_16x16"}});
    const fs::path file = out / cache::cache_file_name(gpu);

    const fs::path broken = scratch.path() / "broken.json";
    write_bytes(broken, "{\"format\": \"spvtune-cache\"");
    const std::string before = read_bytes(file);
    const auto refused =
        run_spvtune(scratch, {"cache", "merge", a.string(), broken.string(), "-o", out});
    CHECK(refused.exit_code == 2);
    CHECK(contains(refused.err, "broken.json"));
    CHECK(read_bytes(file) == before);

    const auto merged = run_spvtune(scratch, {"cache", "merge", a.string(), "-o", out});
    REQUIRE_MESSAGE(merged.exit_code == 0, merged.err);
    const cache::CacheDocument document = cache::read_cache_file(file);
    CHECK(document.entry_count() == 2);
    CHECK(document.find(sample_address("8"))->entry.winner_name == "tiled_32x8");
}

TEST_CASE("cache diff reports a changed winner with its speedup, as text and as JSON") {
    TempDirectory scratch;
    const auto gpu = sample_hardware();
    const fs::path before = machine_directory(scratch, "before", gpu, {{"1024", "tiled_16x16"}});
    const fs::path after =
        machine_directory(scratch, "after", gpu, {{"1024", "tiled_32x8"}, {"2048", "tiled_16x16"}});
    const fs::path json = scratch.path() / "diff.json";
    const auto run = run_spvtune(
        scratch, {"cache", "diff", before.string(), after.string(), "--json", json.string()});
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    CHECK(contains(run.out, "winner changed  matmul n=1024  old tiled_16x16"));
    CHECK(contains(run.out, "new tiled_32x8"));
    // Each winner's time comes with its interval; the old run had the two tied, so the change
    // is noise, not "1.00x faster".
    CHECK(contains(run.out, "old tiled_16x16 1.02 us [1.01 us, 1.02 us]"));
    CHECK(contains(run.out, "(within noise: tied with tiled_32x8 in the old run)"));
    CHECK_FALSE(contains(run.out, "x faster"));
    CHECK(contains(run.out, "added  matmul n=2048"));
    const auto report = nlohmann::json::parse(read_bytes(json));
    const auto& entries = report.at("hardware").at(0).at("entries");
    REQUIRE(entries.size() == 2);
    CHECK(entries[0].at("change") == "winner changed");
    CHECK(entries[0].at("old_winner") == "tiled_16x16");
    CHECK(entries[0].at("within_noise") == "tied with tiled_32x8 in the old run");
    CHECK(entries[0].at("old_interval_ns").size() == 2);
    CHECK(entries[0].at("new_interval_ns").size() == 2);
    CHECK(entries[1].at("within_noise").is_null());
    CHECK(entries[1].at("change") == "added");
}

}  // namespace cache_merge_test
