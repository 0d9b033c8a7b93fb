#pragma once

#include <cstdint>
#include <filesystem>
#include <string_view>
#include <vector>

#include <spvtune/cache/cache_document.hpp>

// The append-only journal beside a cache file ("<file>.journal"): a save adds one record there
// instead of rewriting the whole file, and the next full write folds the records in.
//
// Text, one line each: a header "spvtune-cache-journal 1 <base>" naming, by a hash of its bytes,
// the cache file the records extend, then records "<checksum> <length> <payload>", where the
// payload is a one-entry "tuners" member of a cache file and checksum and length cover it. A
// record cut short by a crash fails its length or checksum and is ignored: it is the last line
// and has no newline yet, since a payload never holds one. Anything else that does not check
// out (a header not of this form, a bad record with a line after it) is damage, which no crash
// makes: its records after the damage are not read, and they must not be cut off either. A
// journal whose base is not the file as it is (a full write replaced the file and was stopped
// before removing the journal) is stale and ignored: the file already holds its records. A base
// that differs from the file's in only a few digits is no other file's: it is damage.
// Replaying records only puts entries, so replaying a journal twice changes nothing.
namespace spvtune::cache::cache_journal {

/// "<file>.journal".
std::filesystem::path journal_path(const std::filesystem::path& file);

/// A hash of a cache file's bytes, quick enough for every load; a journal names its base by it.
std::uint64_t content_hash(std::string_view bytes) noexcept;

/// One saved entry.
struct Record {
    tune::EntryAddress address;
    std::vector<tune::CandidateDescription> candidates;
    CacheKeyRecord record;
};

struct ReadResult {
    /// The valid records from the requested offset on, in order.
    std::vector<Record> records;
    /// Byte offset just past the last valid record (or the header); 0 when there is no journal,
    /// a stale one, or one whose header is cut short.
    std::uint64_t valid_end = 0;
    /// The journal is shorter than the offset asked for: it was replaced; read from 0 again.
    bool restart = false;
    /// What is damaged, where and what follows it (empty: nothing): "record 1 (line 2, byte
    /// 42) does not check out (its length, checksum or entry), and 1 line follows it". The
    /// records before it are in `records`, and `valid_end` is where it starts.
    std::string damage;
};

/// The records of `file`'s journal from byte `offset` (0: from the header), when its base is
/// `base`, and any damage after them. Throws std::system_error when the journal exists but
/// cannot be read.
ReadResult read(const std::filesystem::path& file, std::uint64_t base, std::uint64_t offset);

/// Puts the records' entries into `document`, in order.
void apply(CacheDocument& document, std::vector<Record>& records);

/// Appends `record` to `file`'s journal and flushes it to disk, first cutting off anything past
/// `valid_end` (a torn record: never damage, which callers keep aside first); with `valid_end`
/// 0 the journal is started afresh with a header for `base`. Returns the new valid end.
/// Callers hold the file's FileLock.
std::uint64_t append(const std::filesystem::path& file, std::uint64_t base, std::uint64_t valid_end,
                     const Record& record);

/// Removes `file`'s journal, if any, after a full write folded it in.
void remove(const std::filesystem::path& file);

/// Moves `file`'s damaged journal aside to "<journal>.corrupt-<UTC time>", its bytes intact,
/// and returns where. Callers hold the file's FileLock.
std::filesystem::path keep_aside(const std::filesystem::path& file);

/// Reads a cache file's bytes as it is with its journal's valid records: what readers see. A
/// damaged journal is a CacheFormatError naming it: the entries after the damage are unknown.
CacheDocument read_document(const std::filesystem::path& file, std::string_view text);

}  // namespace spvtune::cache::cache_journal
