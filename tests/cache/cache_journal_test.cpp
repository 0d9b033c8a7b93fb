// Saves append to the journal beside the cache file instead of rewriting it; readers see the
// journal's entries, a record cut short by a crash is ignored, a damaged journal is kept aside,
// and a full write folds it in.
#include <filesystem>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/cache/cache_file.hpp>
#include <spvtune/cache/cache_file_store.hpp>
#include <spvtune/cache/cache_format.hpp>

#include "cache/cache_samples.hpp"
#include "cache/entry_checks.hpp"
#include "cache/temp_directory.hpp"

namespace cache_journal_test {

using namespace spvtune::tune;
using namespace spvtune::cache;
using namespace spvtune::tune::testing;
namespace fs = std::filesystem;

namespace {

bool save(CacheFileStore& store, const std::string& key,
          const std::string& winner = "tiled_16x16") {
    return store
        .save(sample_hardware(), sample_address(key), sample_candidates(), "n=" + key,
              sample_entry(winner))
        .stored;
}

fs::path journal_of(const fs::path& file) {
    return fs::path(file) += ".journal";
}

bool has(const CacheDocument& document, const std::string& key) {
    return document.find(sample_address(key)) != nullptr;
}

// A store with "1" in the file itself and "2", "3" in its journal.
struct JournalFixture {
    TempDirectory directory;
    CacheFileStore store{directory.path()};
    fs::path file = store.file_for(sample_hardware());
    std::string file_bytes;

    JournalFixture() {
        REQUIRE(save(store, "1"));
        file_bytes = read_bytes(file);
        REQUIRE(save(store, "2"));
        REQUIRE(save(store, "3", "naive"));
    }
};

}  // namespace

TEST_CASE("a save to an existing file appends to its journal and leaves the file as it was") {
    JournalFixture f;
    CHECK(read_bytes(f.file) == f.file_bytes);
    REQUIRE(fs::exists(journal_of(f.file)));
    CHECK(read_bytes(journal_of(f.file)).starts_with("spvtune-cache-journal 1 "));

    const CacheDocument document = read_cache_file(f.file);
    CHECK(document.entry_count() == 3);
    CHECK(document.find(sample_address("3"))->entry.winner_name == "naive");
    CacheFileStore reader(f.directory.path(), CacheFileStoreOptions{.read_only = true});
    const auto loaded = reader.load(sample_hardware(), sample_address("2"));
    REQUIRE(loaded);
    TuneEntry expected = sample_entry();
    keep_leading_statistics(expected, default_runners_up_with_statistics);
    check_same_entry(*loaded, expected);
}

TEST_CASE("a record cut short by a crash is ignored, and the next save writes past the cut") {
    JournalFixture f;
    const std::string journal = read_bytes(journal_of(f.file));
    for (std::size_t cut : {1UL, 2UL, 40UL, 200UL}) {
        CAPTURE(cut);
        write_bytes(journal_of(f.file), journal.substr(0, journal.size() - cut));
        const CacheDocument document = read_cache_file(f.file);
        CHECK(has(document, "1"));
        CHECK(has(document, "2"));
        CHECK_FALSE(has(document, "3"));
    }
    CacheFileStore store(f.directory.path());
    REQUIRE(save(store, "4"));
    const CacheDocument document = read_cache_file(f.file);
    CHECK(document.entry_count() == 3);
    CHECK(has(document, "4"));
    CHECK_FALSE(has(document, "3"));
}

// A flipped byte is no crash: a crash cuts the last record short before its newline, while a
// damaged record has a newline and maybe intact records after it. Readers refuse the journal
// (the entries after the damage are unknown), and a store keeps it aside whole, as a corrupt
// file is, folding the records before the damage into the file (issue 34).
namespace {

/// The journal of `f` with one byte of the first record's payload (line 2) changed, or of
/// the last one's, or of the header's text, or one hex digit of the header's base made another
/// (a journal still well formed, but seemingly of another file).
enum class Flip { first_record, last_record, header, base_digit };

std::string damaged_journal(const JournalFixture& f, Flip where) {
    std::string journal = read_bytes(journal_of(f.file));
    const auto second_line = journal.find('\n') + 1;
    const auto last_line = journal.rfind('\n', journal.size() - 2) + 1;
    const auto at = where == Flip::header         ? journal.find("journal")
                    : where == Flip::first_record ? journal.find("tiled_16x16", second_line)
                                                  : journal.find("naive", last_line);
    if (where == Flip::base_digit) {
        char& digit = journal[journal.find('\n') - 1];
        digit = digit == '0' ? '7' : '0';
        write_bytes(journal_of(f.file), journal);
        return journal;
    }
    REQUIRE(at != std::string::npos);
    journal[at] = static_cast<char>(journal[at] ^ 0x20);
    write_bytes(journal_of(f.file), journal);
    return journal;
}

/// The files beside the cache file whose names say they were kept aside from its journal.
std::vector<fs::path> journals_aside(const JournalFixture& f) {
    std::vector<fs::path> found;
    const std::string prefix = journal_of(f.file).filename().string() + ".corrupt-";
    for (const auto& entry : fs::directory_iterator(f.directory.path())) {
        if (entry.path().filename().string().starts_with(prefix)) {
            found.push_back(entry.path());
        }
    }
    return found;
}

}  // namespace

TEST_CASE("readers refuse a damaged journal, naming it and what follows the damage") {
    JournalFixture f;
    damaged_journal(f, Flip::first_record);
    try {
        read_cache_file(f.file);
        FAIL("read a damaged journal");
    } catch (const CacheFormatError& error) {
        CHECK(error.file() == journal_of(f.file));
        CHECK_MESSAGE(
            std::string(error.what())
                    .find("damaged: the record at byte 41 does not check out (its length, "
                          "checksum or entry), and 1 more line follows it") != std::string::npos,
            error.what());
    }
    damaged_journal(f, Flip::header);
    CHECK_THROWS_AS(read_cache_file(f.file), CacheFormatError);
}

TEST_CASE("a journal whose base lost a digit is damaged, not stale: its records are not dropped") {
    JournalFixture f;
    damaged_journal(f, Flip::base_digit);
    try {
        read_cache_file(f.file);
        FAIL("read a journal whose base is one digit off as stale");
    } catch (const CacheFormatError& error) {
        CHECK(error.file() == journal_of(f.file));
        CHECK_MESSAGE(std::string(error.what())
                              .find("differs from the file's in only a few "
                                    "digits") != std::string::npos,
                      error.what());
    }
}

TEST_CASE("a store keeps a damaged journal aside whole, and the entries before the damage") {
    for (const Flip where :
         {Flip::first_record, Flip::last_record, Flip::header, Flip::base_digit}) {
        CAPTURE(static_cast<int>(where));
        JournalFixture f;
        const std::string journal = damaged_journal(f, where);
        std::vector<std::string> warnings;
        CacheFileStore store(f.directory.path(),
                             {.warn = [&](const std::string& text) { warnings.push_back(text); }});
        // A load sees the damage first, and takes the lock to keep the journal aside.
        const bool before_damage = where == Flip::last_record;
        CHECK(store.load(sample_hardware(), sample_address("2")).has_value() == before_damage);
        REQUIRE(warnings.size() == 1);
        CHECK_MESSAGE(warnings.front().starts_with(journal_of(f.file).string() + " is damaged: "),
                      warnings.front());
        const auto aside = journals_aside(f);
        REQUIRE(aside.size() == 1);
        CHECK(read_bytes(aside.front()) == journal);  // every line, the intact ones after it too
        CHECK_MESSAGE(
            warnings.front().find("moved aside to " + aside.front().string()) != std::string::npos,
            warnings.front());
        CHECK_FALSE(fs::exists(journal_of(f.file)));
        // The file holds the records before the damage; readers read it without the journal.
        const CacheDocument document = read_cache_file(f.file);
        CHECK(has(document, "1"));
        CHECK(has(document, "2") == before_damage);
        CHECK_FALSE(has(document, "3"));
        // The next save starts a journal afresh and keeps what is in the file.
        REQUIRE(save(store, "4"));
        CHECK(read_cache_file(f.file).entry_count() == (before_damage ? 3 : 2));
        CHECK(warnings.size() == 1);
    }
}

TEST_CASE("a store that only reads uses the entries before the damage and leaves the journal") {
    JournalFixture f;
    const std::string journal = damaged_journal(f, Flip::last_record);
    std::vector<std::string> warnings;
    CacheFileStore store(
        f.directory.path(),
        {.warn = [&](const std::string& text) { warnings.push_back(text); }, .read_only = true});
    CHECK(store.load(sample_hardware(), sample_address("2")).has_value());
    CHECK_FALSE(store.load(sample_hardware(), sample_address("3")).has_value());
    REQUIRE(warnings.size() == 1);
    CHECK(warnings.front().starts_with(journal_of(f.file).string() + " is damaged: "));
    CHECK(read_bytes(journal_of(f.file)) == journal);
    CHECK(journals_aside(f).empty());
}

TEST_CASE("a journal whose file was rewritten since is stale and ignored") {
    JournalFixture f;
    const std::string journal = read_bytes(journal_of(f.file));
    // `cache clear` of "2": the full write folds the journal in and removes it...
    CHECK(edit_cache_file(f.file, [](CacheDocument& document) {
        return document.tuners.at("matmul")
                   .at(sample_checksum)
                   .entries.erase(sample_address("2").key_json) == 1;
    }));
    CHECK_FALSE(fs::exists(journal_of(f.file)));
    // ...and had it been killed before removing it, the old journal must not bring "2" back.
    write_bytes(journal_of(f.file), journal);
    const CacheDocument document = read_cache_file(f.file);
    CHECK(document.entry_count() == 2);
    CHECK_FALSE(has(document, "2"));
    CHECK(has(document, "3"));
    CacheFileStore store(f.directory.path());
    CHECK_FALSE(store.load(sample_hardware(), sample_address("2")));
    REQUIRE(save(store, "5"));  // starts the journal afresh for the file as it is
    CHECK(read_cache_file(f.file).entry_count() == 3);
}

TEST_CASE("compacting folds the journal into the file, which then holds every entry alone") {
    JournalFixture f;
    CHECK(compact_cache_file(f.file));
    CHECK_FALSE(fs::exists(journal_of(f.file)));
    CHECK(parse_cache(read_bytes(f.file), f.file).entry_count() == 3);
    CHECK_FALSE(compact_cache_file(f.file));  // nothing left to fold
}

TEST_CASE("the store folds its journal at the end of a run, and a store that only reads never") {
    JournalFixture f;
    CacheFileStore shipped(f.directory.path(), {.read_only = true});
    CHECK_FALSE(shipped.fold_journal(sample_hardware()));
    CHECK(fs::exists(journal_of(f.file)));
    CHECK(f.store.fold_journal(sample_hardware()));
    CHECK_FALSE(fs::exists(journal_of(f.file)));
    CHECK(parse_cache(read_bytes(f.file), f.file).entry_count() == 3);
    CHECK_FALSE(f.store.fold_journal(sample_hardware()));  // nothing left to fold
    REQUIRE(save(f.store, "4"));                           // the store goes on from the folded file
    CHECK(read_cache_file(f.file).entry_count() == 4);
}

TEST_CASE("a journal that cannot be folded is a warning, and it stays for readers") {
    JournalFixture f;
    std::vector<std::string> warnings;
    CacheFileStore store(f.directory.path(),
                         {.warn = [&](const std::string& text) { warnings.push_back(text); }});
    // A newer spvtune's file is never rewritten, so its journal cannot be folded in.
    std::string text = read_bytes(f.file);
    const std::string version = "\"schema_version\": " + std::to_string(cache_schema_version);
    REQUIRE(text.find(version) != std::string::npos);
    text.replace(text.find(version), version.size(), "\"schema_version\": 999");
    write_bytes(f.file, text);
    CHECK_FALSE(store.fold_journal(sample_hardware()));
    REQUIRE(warnings.size() == 1);
    CHECK(warnings.front().starts_with("the cache file's journal was not folded in: "));
    CHECK(fs::exists(journal_of(f.file)));
}

TEST_CASE("a re-tune mark goes through the journal and is seen by other stores") {
    JournalFixture f;
    f.store.mark_needs_retune(sample_hardware(), sample_address("2"));
    CHECK(read_bytes(f.file) == f.file_bytes);
    CacheFileStore other(f.directory.path());
    const auto loaded = other.load(sample_hardware(), sample_address("2"));
    REQUIRE(loaded);
    CHECK(loaded->needs_retune);
    REQUIRE(save(other, "2", "tiled_32x8"));
    CHECK(read_cache_file(f.file).find(sample_address("2"))->entry.winner_name == "tiled_32x8");
}

TEST_CASE("the journal stays small next to the file: past its bound a save folds it in") {
    TempDirectory directory;
    CacheFileStore store(directory.path());
    const fs::path file = store.file_for(sample_hardware());
    std::size_t folds = 0;
    for (int i = 0; i < 150; ++i) {
        REQUIRE(save(store, std::to_string(i)));
        if (!fs::exists(journal_of(file))) {
            ++folds;
            continue;
        }
        CHECK(fs::file_size(journal_of(file)) < 64 * 1024 + fs::file_size(file) / 16 + 2048);
    }
    CHECK(folds >= 2);  // the first save, then at least one fold
    CHECK(read_cache_file(file).entry_count() == 150);
}

}  // namespace cache_journal_test
