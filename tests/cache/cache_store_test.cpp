#include <filesystem>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/cache/cache_file.hpp>
#include <spvtune/cache/cache_file_store.hpp>
#include <spvtune/cache/cache_format.hpp>

#include "cache/cache_samples.hpp"
#include "cache/entry_checks.hpp"
#include "cache/temp_directory.hpp"

namespace cache_store_test {

using namespace spvtune::tune;

using namespace spvtune::cache;
using namespace spvtune::tune::testing;
namespace fs = std::filesystem;

namespace {

// Collects warnings instead of printing them, so tests can count and read them.
struct Warnings {
    std::vector<std::string> messages;
    CacheFileStoreOptions options(DriverMismatch policy = DriverMismatch::refuse) {
        return {policy, [this](const std::string& message) { messages.push_back(message); }};
    }
};

StoreOutcome save(CacheFileStore& store, const std::string& key,
                  const std::string& winner = "tiled_16x16",
                  const HardwareIdentity& hardware = sample_hardware()) {
    return store.save(hardware, sample_address(key), sample_candidates(), "n=" + key,
                      sample_entry(winner));
}

}  // namespace

TEST_CASE("a saved entry is in the file and a new store loads it back whole") {
    TempDirectory directory;
    const auto nested = directory.path() / "created" / "on-demand";
    Warnings warnings;
    {
        CacheFileStore store(nested, warnings.options());
        const StoreOutcome outcome = save(store, "64");
        CHECK(outcome.stored);
        CHECK_FALSE(outcome.kept);
    }
    CacheFileStore store(nested, warnings.options());
    const auto file = store.file_for(sample_hardware());
    CHECK(file == nested / "test-gpu-00000000000000aa.json");
    const auto loaded = store.load(sample_hardware(), sample_address("64"));
    REQUIRE(loaded);
    // By default the file keeps the statistics of the winner and its first runners-up.
    TuneEntry expected = sample_entry();
    keep_leading_statistics(expected, default_runners_up_with_statistics);
    check_same_entry(*loaded, expected);
    CHECK_FALSE(store.load(sample_hardware(), sample_address("65")));
    CHECK_FALSE(store.load(sample_hardware(), sample_address("64", "other-tuner")));
    CHECK_FALSE(store.load(sample_hardware(), sample_address("64", "matmul", 42)));

    const CacheDocument document = read_cache_file(file);
    check_same_hardware(document.hardware, sample_hardware());
    CHECK(document.tuners.at("matmul").at(sample_checksum).candidates.size() == 4);
    CHECK(document.find(sample_address("64"))->printed_key == "n=64");
    CHECK(warnings.messages.empty());
}

TEST_CASE("a store keeps the statistics of the first two runners-up and the order of the rest") {
    TempDirectory directory;
    TuneEntry entry = sample_entry();
    entry.failures.clear();
    RankedCandidate fourth = entry.ranking[2];
    fourth.name = "broken";
    fourth.index = 3;
    entry.ranking.push_back(fourth);
    {
        CacheFileStore store(directory.path());
        CHECK(
            store.save(sample_hardware(), sample_address("64"), sample_candidates(), "n=64", entry)
                .stored);
    }
    CacheFileStore store(directory.path());
    const auto loaded = store.load(sample_hardware(), sample_address("64"));
    REQUIRE(loaded);
    REQUIRE(loaded->ranking.size() == 4);
    // The runners-up' medians, intervals and tie/elimination marks are what reports show.
    for (std::size_t i = 1; i < 3; ++i) {
        CAPTURE(i);
        CHECK(statistics_kept(loaded->ranking[i].statistics));
        CHECK(loaded->ranking[i].statistics.median_ns == entry.ranking[i].statistics.median_ns);
        CHECK(loaded->ranking[i].statistics.ci_low_ns == entry.ranking[i].statistics.ci_low_ns);
        CHECK(loaded->ranking[i].statistics.ci_high_ns == entry.ranking[i].statistics.ci_high_ns);
        CHECK(loaded->ranking[i].tied_with_winner == entry.ranking[i].tied_with_winner);
        CHECK(loaded->ranking[i].eliminated == entry.ranking[i].eliminated);
    }
    CHECK(loaded->ranking[3].name == "broken");
    CHECK_FALSE(statistics_kept(loaded->ranking[3].statistics));
}

TEST_CASE("a store lists the keys it holds for one tuner and candidate list, journal included") {
    TempDirectory directory;
    {
        CacheFileStore store(directory.path());
        save(store, "64");
        save(store, "4096");
        CHECK(compact_cache_file(store.file_for(sample_hardware())));
        save(store, "256");  // in the journal
        store.save(sample_hardware(), sample_address("1", "other-tuner"), sample_candidates(),
                   "n=1", sample_entry());
    }
    CacheFileStore store(directory.path(), CacheFileStoreOptions{.read_only = true});
    CHECK(store.keys(sample_hardware(), "matmul", sample_checksum) ==
          std::vector<std::string>{sample_address("256").key_json, sample_address("4096").key_json,
                                   sample_address("64").key_json});
    CHECK(store.keys(sample_hardware(), "matmul", sample_checksum + 1).empty());
    CHECK(store.keys(sample_hardware(), "nothing", sample_checksum).empty());
    CHECK(store.keys(sample_hardware("another-gpu-00000000000000bb"), "matmul", sample_checksum)
              .empty());
}

TEST_CASE("an unchanged cache re-saves byte-identically") {
    TempDirectory directory;
    CacheFileStore store(directory.path());
    save(store, "1");
    save(store, "2", "naive");  // into the journal, which compacting folds into the file
    const auto file = store.file_for(sample_hardware());
    CHECK(compact_cache_file(file));
    const std::string before = read_bytes(file);
    CHECK(edit_cache_file(file, [](CacheDocument&) { return true; }));
    CHECK(read_bytes(file) == before);
    CHECK(serialize_cache(read_cache_file(file)) == before);
}

TEST_CASE("for an address already settled the first entry is kept and the second reported") {
    TempDirectory directory;
    CacheFileStore first(directory.path());
    CacheFileStore second(directory.path());
    REQUIRE(save(first, "8", "naive").stored);
    const StoreOutcome outcome = save(second, "8", "tiled_32x8");
    CHECK_FALSE(outcome.stored);
    REQUIRE(outcome.kept);
    CHECK(outcome.kept->winner_name == "naive");
    CHECK(outcome.message.find("naive") != std::string::npos);
    CHECK(outcome.message.find("tiled_32x8") != std::string::npos);
    CHECK(read_cache_file(first.file_for(sample_hardware()))
              .find(sample_address("8"))
              ->entry.winner_name == "naive");
}

// The readers refuse such a winner, so storing one would make the whole file corrupt (issue 34).
TEST_CASE("a winner not named after the candidate its index runs is not stored") {
    TempDirectory directory;
    CacheFileStore store(directory.path());
    REQUIRE(save(store, "1").stored);
    const fs::path file = store.file_for(sample_hardware());
    const std::string before = read_bytes(file);
    TuneEntry misnamed = sample_entry("naive");
    misnamed.winner_index = 2;
    TuneEntry outside = sample_entry();
    outside.winner_index = 4;
    for (const TuneEntry& entry : {misnamed, outside}) {
        const StoreOutcome outcome =
            store.save(sample_hardware(), sample_address("2"), sample_candidates(), "n=2", entry);
        CHECK_FALSE(outcome.stored);
        CHECK_MESSAGE(outcome.message.starts_with("not stored: the winner "), outcome.message);
    }
    CHECK(read_bytes(file) == before);
    CHECK_FALSE(fs::exists(fs::path(file) += ".journal"));
    CHECK(read_cache_file(file).entry_count() == 1);
}

TEST_CASE("an entry marked for re-tuning is persisted as such and may then be replaced") {
    TempDirectory directory;
    CacheFileStore store(directory.path());
    save(store, "8", "naive");
    store.mark_needs_retune(sample_hardware(), sample_address("8"));
    store.mark_needs_retune(sample_hardware(), sample_address("absent"));  // no-op

    CacheFileStore other(directory.path());
    const auto loaded = other.load(sample_hardware(), sample_address("8"));
    REQUIRE(loaded);
    CHECK(loaded->needs_retune);
    CHECK(other.load(sample_hardware(), sample_address("absent")) == std::nullopt);

    CHECK(save(other, "8", "tiled_32x8").stored);
    CHECK(store.load(sample_hardware(), sample_address("8"))->winner_name == "tiled_32x8");
    CHECK_FALSE(store.load(sample_hardware(), sample_address("8"))->needs_retune);
}

TEST_CASE("a load sees entries another store saved after this one first read the file") {
    TempDirectory directory;
    CacheFileStore reader(directory.path());
    CacheFileStore writer(directory.path());
    save(writer, "1");
    CHECK(reader.load(sample_hardware(), sample_address("1")));
    CHECK_FALSE(reader.load(sample_hardware(), sample_address("2")));
    save(writer, "2");
    CHECK(reader.load(sample_hardware(), sample_address("2")));
}

TEST_CASE("a corrupt file is moved aside intact, once, and the store continues empty") {
    for (const std::string& corrupt :
         {std::string("{\"format\": \"spvtune-cache\", \"schema_v"), std::string("not json at all"),
          std::string("{\"format\": \"spvtune-cache\", \"schema_version\": 1, \"tool_version\": 1, "
                      "\"hardware\": {}, \"tuners\": {}}\n")}) {
        CAPTURE(corrupt);
        TempDirectory directory;
        Warnings warnings;
        CacheFileStore store(directory.path(), warnings.options());
        const auto file = store.file_for(sample_hardware());
        write_bytes(file, corrupt);

        CHECK_FALSE(store.load(sample_hardware(), sample_address("1")));
        REQUIRE(warnings.messages.size() == 1);
        const auto backups = files_containing(directory.path(), ".corrupt-");
        REQUIRE(backups.size() == 1);
        CHECK(backups[0].extension() == ".json");
        CHECK(read_bytes(backups[0]) == corrupt);
        CHECK(warnings.messages[0].find(file.string()) != std::string::npos);
        CHECK(warnings.messages[0].find(backups[0].string()) != std::string::npos);
        CHECK_FALSE(std::filesystem::exists(file));

        CHECK(save(store, "1").stored);
        CHECK(store.load(sample_hardware(), sample_address("1")));
        CHECK(warnings.messages.size() == 1);
        CHECK(read_bytes(backups[0]) == corrupt);
    }
}

TEST_CASE("a cache file nested far too deep is moved aside intact, never written back") {
    // Settings are free JSON: a hostile file can nest them deeply there and still be valid.
    // Writing it back recursed once per level and crashed every save into the shared file.
    TempDirectory directory;
    Warnings warnings;
    CacheFileStore store(directory.path(), warnings.options());
    REQUIRE(save(store, "1").stored);
    const auto file = store.file_for(sample_hardware());
    std::string text = read_bytes(file);
    const std::string settings = "\"settings\": {";
    const auto at = text.find(settings);
    REQUIRE(at != std::string::npos);
    text.insert(at + settings.size(),
                "\"deep\": " + std::string(100000, '[') + std::string(100000, ']') + ", ");
    write_bytes(file, text);

    CHECK(save(store, "2").stored);
    const auto backups = files_containing(directory.path(), ".corrupt-");
    REQUIRE(backups.size() == 1);
    CHECK(read_bytes(backups[0]) == text);
    REQUIRE(warnings.messages.size() == 1);
    CHECK(warnings.messages[0].find("nested deeper than 128 levels of objects and arrays") !=
          std::string::npos);
    CHECK(store.load(sample_hardware(), sample_address("2")));
}

TEST_CASE("a corrupt file found while saving is moved aside and the entry still saved") {
    TempDirectory directory;
    Warnings warnings;
    CacheFileStore store(directory.path(), warnings.options());
    write_bytes(store.file_for(sample_hardware()), "[]");
    CHECK(save(store, "1").stored);
    CHECK(warnings.messages.size() == 1);
    CHECK(read_bytes(files_containing(directory.path(), ".corrupt-").at(0)) == "[]");
    CHECK(read_cache_file(store.file_for(sample_hardware())).entry_count() == 1);
}

TEST_CASE("a file from a newer schema version is read but never rewritten") {
    TempDirectory directory;
    Warnings warnings;
    CacheFileStore seed(directory.path());
    save(seed, "old");
    const auto file = seed.file_for(sample_hardware());
    auto json = nlohmann::json::parse(read_bytes(file));
    json["schema_version"] = 7;
    json["tool_version"] = "9.0.0";
    json["something_new"] = {{"x", 1}};
    const std::string newer = json.dump(2) + "\n";
    write_bytes(file, newer);

    CacheFileStore store(directory.path(), warnings.options());
    CHECK(store.load(sample_hardware(), sample_address("old")));
    REQUIRE(warnings.messages.size() == 1);
    CHECK(warnings.messages[0].find("newer") != std::string::npos);
    CHECK(warnings.messages[0].find("never rewritten") != std::string::npos);

    const StoreOutcome outcome = save(store, "new");
    CHECK_FALSE(outcome.stored);
    CHECK(outcome.message.find("memory") != std::string::npos);
    CHECK(store.load(sample_hardware(), sample_address("new")));  // kept for this run
    store.mark_needs_retune(sample_hardware(), sample_address("old"));
    CHECK(read_bytes(file) == newer);
    CHECK(warnings.messages.size() == 1);
    CHECK(files_containing(directory.path(), ".corrupt-").empty());

    // edit_cache_file, used by `spvtune cache clear`, refuses it too.
    CHECK_THROWS_AS(edit_cache_file(file, [](CacheDocument&) { return true; }), CacheFormatError);
    CHECK(read_bytes(file) == newer);
}

TEST_CASE("a newer file this version cannot read is left untouched, not moved aside") {
    TempDirectory directory;
    Warnings warnings;
    CacheFileStore store(directory.path(), warnings.options());
    const auto file = store.file_for(sample_hardware());
    const std::string newer = R"({"format": "spvtune-cache", "schema_version": 3, "tuners": []})";
    write_bytes(file, newer);
    CHECK_FALSE(store.load(sample_hardware(), sample_address("1")));
    CHECK_FALSE(save(store, "1").stored);
    CHECK(store.load(sample_hardware(), sample_address("1")));
    CHECK(warnings.messages.size() == 1);
    CHECK(read_bytes(file) == newer);
    CHECK(files_containing(directory.path(), ".corrupt-").empty());
}

TEST_CASE("an unwritable cache directory degrades to memory with one warning") {
    TempDirectory directory;
    // A path below a regular file cannot be created, even by root (tests may run as root, so
    // permission bits alone would not stop it).
    write_bytes(directory.path() / "a-file", "x");
    const auto unwritable = directory.path() / "a-file" / "cache";
    Warnings warnings;
    CacheFileStore store(unwritable, warnings.options());

    CHECK_FALSE(store.load(sample_hardware(), sample_address("1")));
    const StoreOutcome first = save(store, "1");
    const StoreOutcome second = save(store, "2");
    CHECK_FALSE(first.stored);
    CHECK_FALSE(second.stored);
    CHECK(first.message.find("memory") != std::string::npos);
    CHECK(store.load(sample_hardware(), sample_address("1")));
    CHECK(store.load(sample_hardware(), sample_address("2")));
    CHECK(save(store, "1", "naive").kept->winner_name == "tiled_16x16");
    store.mark_needs_retune(sample_hardware(), sample_address("1"));
    CHECK(store.load(sample_hardware(), sample_address("1"))->needs_retune);
    REQUIRE(warnings.messages.size() == 1);
    CHECK(warnings.messages[0].find(unwritable.string()) != std::string::npos);
    CHECK(warnings.messages[0].find("memory") != std::string::npos);
}

TEST_CASE("temporaries left by a killed writer are removed by the next save") {
    TempDirectory directory;
    CacheFileStore store(directory.path());
    save(store, "1");
    const auto file = store.file_for(sample_hardware());
    write_bytes(std::filesystem::path(file) += ".tmp-99999-0", "half a fi");
    save(store, "2");
    CHECK(files_containing(directory.path(), ".tmp-").empty());
    CHECK(read_cache_file(file).entry_count() == 2);
}

TEST_CASE("threads and several stores in one process keep every entry") {
    TempDirectory directory;
    CacheFileStore shared(directory.path());
    CacheFileStore separate(directory.path());
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&, t] {
            CacheFileStore& store = t % 2 == 0 ? shared : separate;
            for (int i = 0; i < 10; ++i) {
                const std::string key = std::to_string(t) + "-" + std::to_string(i);
                CHECK(save(store, key).stored);
                CHECK(store.load(sample_hardware(), sample_address(key)));
            }
        });
    }
    for (auto& thread : threads) {
        thread.join();
    }
    CHECK(read_cache_file(shared.file_for(sample_hardware())).entry_count() == 40);
}

TEST_CASE("a key with no JSON form is refused rather than written into an unreadable file") {
    TempDirectory directory;
    CacheFileStore store(directory.path());
    EntryAddress address = sample_address("1");
    address.key_json = "{not json";
    const StoreOutcome outcome =
        store.save(sample_hardware(), address, sample_candidates(), "bad", sample_entry());
    CHECK_FALSE(outcome.stored);
    CHECK_FALSE(std::filesystem::exists(store.file_for(sample_hardware())));
}

namespace {

/// Every file in `directory` with its bytes.
std::map<std::string, std::string> contents_of(const std::filesystem::path& directory) {
    std::map<std::string, std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(directory)) {
        files[entry.path().filename().string()] = read_bytes(entry.path());
    }
    return files;
}

}  // namespace

TEST_CASE("a read-only store reads entries but never writes, locks or moves a file") {
    TempDirectory directory;
    Warnings warnings;
    {
        CacheFileStore writer(directory.path(), warnings.options());
        REQUIRE(save(writer, "64").stored);
    }
    std::filesystem::remove(directory.path() / "test-gpu-00000000000000aa.json.lock");
    const auto shipped = contents_of(directory.path());

    CacheFileStoreOptions options = warnings.options();
    options.read_only = true;
    CacheFileStore store(directory.path(), options);
    CHECK(store.load(sample_hardware(), sample_address("64")).has_value());
    const StoreOutcome outcome = save(store, "128");
    CHECK_FALSE(outcome.stored);
    CHECK(outcome.message.find("read-only") != std::string::npos);
    // Kept in memory for this process...
    CHECK(store.load(sample_hardware(), sample_address("128")).has_value());
    // ... the settled entry from the file still wins over a later save ...
    CHECK(save(store, "64", "naive").kept.has_value());
    // ... and a re-tune mark lets a new result replace it, in memory only.
    store.mark_needs_retune(sample_hardware(), sample_address("64"));
    CHECK_FALSE(save(store, "64", "naive").kept.has_value());
    CHECK(store.load(sample_hardware(), sample_address("64"))->winner_name == "naive");
    CHECK(contents_of(directory.path()) == shipped);
}

TEST_CASE("a read-only store leaves a corrupt file where it is, with one warning") {
    TempDirectory directory;
    Warnings warnings;
    CacheFileStoreOptions options = warnings.options();
    options.read_only = true;
    CacheFileStore store(directory.path(), options);
    const auto file = store.file_for(sample_hardware());
    write_bytes(file, "{ not json");
    CHECK_FALSE(store.load(sample_hardware(), sample_address("64")).has_value());
    CHECK_FALSE(save(store, "64").stored);
    CHECK_FALSE(store.load(sample_hardware(), sample_address("32")).has_value());
    CHECK(contents_of(directory.path()) ==
          std::map<std::string, std::string>{{file.filename().string(), "{ not json"}});
    REQUIRE(warnings.messages.size() == 1);
    CHECK(warnings.messages[0].find("left untouched") != std::string::npos);
}

}  // namespace cache_store_test
