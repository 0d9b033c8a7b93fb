// Fuzzes the cache journal reader ("<file>.journal", lib/cache/src/cache_journal.hpp): any bytes
// there read as the records before any damage, with the damage named, never a crash, a hang or
// an error but the documented ones, and a journal is read the same from its valid end on as in
// one go. The input's header, when it has one, is made to name this run's cache file as its
// base, so that mutations reach the records rather than stop at a stale journal.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <unistd.h>

#include <spvtune/base/digest.hpp>
#include <spvtune/cache/cache_format.hpp>

#include "cache_journal.hpp"

namespace {

namespace fs = std::filesystem;
namespace journal = spvtune::cache::cache_journal;

constexpr std::string_view header_prefix = "spvtune-cache-journal 1 ";

/// A cache file with no entries, its journal's base.
std::string cache_text() {
    return R"({"format":"spvtune-cache","hardware":{"device_id":0,"device_name":"",)"
           R"("driver_version":"","key":"fuzz","record":{},"vendor_id":0},"schema_version":)" +
           std::to_string(spvtune::cache::cache_schema_version) +
           R"(,"tool_version":"","tuners":{}})";
}

/// The cache file, written once in a folder of this process's own.
const fs::path& cache_file() {
    static const fs::path file = [] {
        const fs::path dir =
            fs::temp_directory_path() / ("spvtune-fuzz-journal-" + std::to_string(::getpid()));
        fs::create_directories(dir);
        const fs::path path = dir / "fuzz.json";
        std::ofstream(path, std::ios::binary) << cache_text();
        return path;
    }();
    return file;
}

void write(const fs::path& path, std::string_view bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

[[noreturn]] void fail(const std::string& what) {
    std::fprintf(stderr, "journal reader: %s\n", what.c_str());
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string bytes(reinterpret_cast<const char*>(data), size);
    const std::string text = cache_text();
    const std::uint64_t base = journal::content_hash(text);
    if (bytes.starts_with(header_prefix) && bytes.size() >= header_prefix.size() + 16) {
        bytes.replace(header_prefix.size(), 16, spvtune::base::to_hex(base));
    }
    write(journal::journal_path(cache_file()), bytes);

    // Any exception escapes and libFuzzer reports it as a finding: the journal is a regular file
    // of this process's own, so even std::system_error (it cannot be read) would be one.
    const journal::ReadResult whole = journal::read(cache_file(), base, 0);
    if (whole.valid_end > bytes.size()) {
        fail("a valid end past the journal's end");
    }
    if (whole.valid_end != 0) {
        // From the valid end on, no record: each was read in one go, up to damage or a torn
        // record at most, and the same damage is met again.
        const journal::ReadResult rest = journal::read(cache_file(), base, whole.valid_end);
        if (!rest.records.empty() || rest.restart || rest.damage.empty() != whole.damage.empty()) {
            fail("a second read from the valid end found something else: " + rest.damage);
        }
    }
    try {
        static_cast<void>(journal::read_document(cache_file(), text));
        if (!whole.damage.empty()) {
            fail("a damaged journal read as a document: " + whole.damage);
        }
    } catch (const spvtune::cache::CacheFormatError&) {
        if (whole.damage.empty()) {
            fail("an undamaged journal refused as a document");
        }
    }
    return 0;
}
