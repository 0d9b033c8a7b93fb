#include "cache_journal.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

#include <spvtune/base/digest.hpp>
#include <spvtune/base/foreign_link.hpp>
#include <spvtune/base/posix_file.hpp>
#include <spvtune/cache/cache_format.hpp>

#include "cache_file_io.hpp"
#include "cache_json_values.hpp"

namespace spvtune::cache::cache_journal {
namespace {

namespace fs = std::filesystem;
using base::Descriptor;
using base::throw_errno;

constexpr std::string_view header_prefix = "spvtune-cache-journal 1 ";
constexpr std::size_t header_size = header_prefix.size() + 16 + 1;

std::uint64_t payload_checksum(std::string_view payload) {
    return base::Fnv1a().add(payload).value();
}

std::string header_line(std::uint64_t base) {
    return std::string(header_prefix) + base::to_hex(base) + "\n";
}

std::string record_line(const Record& record) {
    CacheDocument one;
    one.put(record.address, record.candidates, record.record);
    const std::string payload =
        cache_json::tuners_json(one).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return base::to_hex(payload_checksum(payload)) + " " + std::to_string(payload.size()) + " " +
           payload + "\n";
}

// The payload wrapped into a cache document, so the cache reader checks it as strictly as a
// file's own entries.
std::optional<CacheDocument> parse_payload(std::string_view payload, const fs::path& journal) {
    std::string text =
        R"({"format":"spvtune-cache","hardware":{"device_id":0,"device_name":"",)"
        R"("driver_version":"","key":"","record":{},"vendor_id":0},"schema_version":)" +
        std::to_string(cache_schema_version) + R"(,"tool_version":"","tuners":)";
    text.append(payload);
    text += '}';
    try {
        return parse_cache(text, journal);
    } catch (const CacheFormatError&) {
        return std::nullopt;
    }
}

// One record at the start of `text`; its length in bytes, or 0 when it is cut short or does not
// check out.
std::size_t parse_record(std::string_view text, const fs::path& journal,
                         std::vector<Record>& records) {
    // "<16 hex> <length> <payload>\n"
    if (text.size() < 19 || text[16] != ' ') {
        return 0;
    }
    const auto checksum = cache_json::parse_checksum(text.substr(0, 16));
    std::size_t length = 0;
    const char* const digits = text.data() + 17;
    const auto [end, error] = std::from_chars(digits, text.data() + text.size(), length);
    if (!checksum || error != std::errc{} || end == digits || end == text.data() + text.size() ||
        *end != ' ') {
        return 0;
    }
    const std::size_t start = static_cast<std::size_t>(end - text.data()) + 1;
    if (length > text.size() - start || start + length >= text.size() ||
        text[start + length] != '\n') {
        return 0;
    }
    const std::string_view payload = text.substr(start, length);
    if (payload_checksum(payload) != *checksum) {
        return 0;
    }
    const auto document = parse_payload(payload, journal);
    if (!document) {
        return 0;
    }
    for (const auto& [tuner, lists] : document->tuners) {
        for (const auto& [list_checksum, list] : lists) {
            for (const auto& [key_json, entry] : list.entries) {
                records.push_back(Record{{tuner, list_checksum, key_json}, list.candidates, entry});
            }
        }
    }
    return start + length + 1;
}

bool is_hex_digit(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

// Whether `text` is a header line (all of it, or the start of one when it is shorter: a journal
// whose creation a crash cut short), for any base.
bool is_header(std::string_view text) {
    const std::size_t prefix = std::min(text.size(), header_prefix.size());
    if (text.substr(0, prefix) != header_prefix.substr(0, prefix)) {
        return false;
    }
    for (std::size_t at = header_prefix.size(); at < text.size(); ++at) {
        if (at + 1 == header_size ? text[at] != '\n' : !is_hex_digit(text[at])) {
            return false;
        }
    }
    return text.size() <= header_size;
}

// ", and N more lines follow it" after the damaged line that starts `rest`.
std::string what_follows(std::string_view rest) {
    const std::size_t end = rest.find('\n');
    const std::string_view after =
        end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    std::size_t lines = 0;
    for (std::size_t at = 0; at < after.size(); ++lines) {
        const std::size_t next = after.find('\n', at);
        at = next == std::string_view::npos ? after.size() : next + 1;
    }
    return lines == 0 ? ", and nothing follows it"
                      : ", and " + std::to_string(lines) +
                            (lines == 1 ? " more line follows it" : " more lines follow it");
}

// Whether two headers differ in one to a few of their base's 16 hex digits. Another file's base
// is an unrelated hash, differing in about 15 (all but four in about 1 of 10^13 files); a flipped
// or overwritten digit changes one. So that is damage to this file's journal, not a stale one.
bool near_miss(std::string_view header, std::string_view expected) {
    constexpr std::size_t most_digits_damaged = 4;
    std::size_t differing = 0;
    for (std::size_t at = 0; at < header.size() && at < expected.size(); ++at) {
        differing += header[at] != expected[at] ? 1 : 0;
    }
    return differing > 0 && differing <= most_digits_damaged;
}

void sync_directory(const fs::path& file) {
    const fs::path directory = file.has_parent_path() ? file.parent_path() : fs::path(".");
    Descriptor dir(::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (dir.get() >= 0) {
        ::fsync(dir.get());
    }
}

}  // namespace

fs::path journal_path(const fs::path& file) {
    return fs::path(file) += ".journal";
}

std::uint64_t content_hash(std::string_view bytes) noexcept {
    // Four independent multiply-xorshift lanes over 8-byte words: several bytes per cycle, where
    // FNV-1a's one dependent multiply per byte would cost a large file milliseconds.
    constexpr std::uint64_t k = 0x9e3779b97f4a7c15ULL;
    std::uint64_t lanes[4] = {k, k ^ 1, k ^ 2, k ^ 3};
    std::size_t at = 0;
    for (; at + 32 <= bytes.size(); at += 32) {
        for (int lane = 0; lane < 4; ++lane) {
            std::uint64_t word = 0;
            std::memcpy(&word, bytes.data() + at + 8 * lane, 8);
            lanes[lane] = (lanes[lane] ^ word) * k;
            lanes[lane] ^= lanes[lane] >> 29;
        }
    }
    base::Fnv1a tail;
    tail.add(bytes.substr(at)).add(static_cast<std::uint64_t>(bytes.size()));
    for (std::uint64_t lane : lanes) {
        tail.add(lane);
    }
    return tail.value();
}

ReadResult read(const fs::path& file, std::uint64_t base, std::uint64_t offset) {
    const fs::path journal = journal_path(file);
    const auto contents = cache_io::read_file(journal, cache_io::Links::refuse);
    ReadResult result;
    if (!contents) {
        result.restart = offset > 0;
        return result;
    }
    const std::string_view text = contents->text;
    if (offset > text.size()) {
        result.restart = true;
        return result;
    }
    std::size_t at = static_cast<std::size_t>(offset);
    if (at == 0) {
        if (!is_header(text.substr(0, header_size))) {
            result.damage = "its header is not \"" + std::string(header_prefix) +
                            "<16 hex digits>\"" + what_follows(text);
            return result;
        }
        if (text.size() < header_size) {
            return result;  // its header was cut short: no records
        }
        if (const std::string_view header = text.substr(0, header_size);
            header != header_line(base)) {
            if (near_miss(header, header_line(base))) {
                result.damage =
                    "its header names a base " +
                    std::string(header.substr(header_prefix.size(), 16)) +
                    " that differs from the file's in only a few digits, which no other "
                    "file's would" +
                    what_follows(text);
            }
            return result;  // stale: a full write folded its records in; no records
        }
        at = header_size;
    }
    while (at < text.size()) {
        const std::size_t length = parse_record(text.substr(at), journal, result.records);
        if (length == 0) {
            // A crash cuts a record short before its newline; a bad line ended by one is damage.
            if (text.find('\n', at) != std::string_view::npos) {
                result.damage = "the record at byte " + std::to_string(at) +
                                " does not check out (its length, checksum or entry)" +
                                what_follows(text.substr(at));
            }
            break;
        }
        at += length;
    }
    result.valid_end = at;
    return result;
}

void apply(CacheDocument& document, std::vector<Record>& records) {
    for (Record& record : records) {
        document.put(record.address, record.candidates, std::move(record.record));
    }
}

std::uint64_t append(const fs::path& file, std::uint64_t base, std::uint64_t valid_end,
                     const Record& record) {
    const fs::path journal = journal_path(file);
    const bool fresh = valid_end == 0;
    const std::string line = fresh ? header_line(base) + record_line(record) : record_line(record);
    // O_NOFOLLOW: truncating or appending through a link would write the file it names.
    Descriptor fd(::open(journal.c_str(),
                         O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | (fresh ? O_TRUNC : 0),
                         0666));
    if (fd.get() < 0) {
        if (errno == ELOOP && base::is_symbolic_link(journal)) {
            base::throw_foreign_link(journal);
        }
        throw_errno(errno, "cannot open", journal);
    }
    const auto start = static_cast<off_t>(valid_end);
    // A torn record after the valid ones would hide every record appended behind it.
    if (!fresh && ::ftruncate(fd.get(), start) != 0) {
        throw_errno(errno, "cannot truncate", journal);
    }
    if (::lseek(fd.get(), start, SEEK_SET) < 0) {
        throw_errno(errno, "cannot seek in", journal);
    }
    base::write_all(fd.get(), line, journal);
    if (::fdatasync(fd.get()) != 0) {
        throw_errno(errno, "cannot flush", journal);
    }
    if (fresh) {
        sync_directory(journal);  // the new file's name must survive a crash too
    }
    return valid_end + line.size();
}

void remove(const fs::path& file) {
    const fs::path journal = journal_path(file);
    if (::unlink(journal.c_str()) != 0 && errno != ENOENT) {
        throw_errno(errno, "cannot remove", journal);
    }
}

fs::path keep_aside(const fs::path& file) {
    return cache_io::move_aside_as_is(journal_path(file), "corrupt");
}

CacheDocument read_document(const fs::path& file, std::string_view text) {
    CacheDocument document = parse_cache(text, file);
    // A file from another schema version never had records appended by this version.
    if (document.schema_version == cache_schema_version) {
        ReadResult journal = read(file, content_hash(text), 0);
        if (!journal.damage.empty()) {
            throw CacheFormatError(journal_path(file), "",
                                   "damaged: " + journal.damage +
                                       " (the next tune that saves to the file moves the "
                                       "journal aside and keeps the entries before the damage)");
        }
        apply(document, journal.records);
    }
    return document;
}

}  // namespace spvtune::cache::cache_journal
