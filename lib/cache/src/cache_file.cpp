#include <cerrno>
#include <system_error>

#include <spvtune/cache/cache_file.hpp>
#include <spvtune/cache/cache_format.hpp>

#include "cache_file_io.hpp"
#include "cache_journal.hpp"

namespace spvtune::cache {

CacheDocument read_cache_file(const std::filesystem::path& file, base::LinkPolicy links) {
    for (int attempt = 1;; ++attempt) {
        const auto contents = cache_io::read_file(file, links);
        if (!contents) {
            throw std::system_error(ENOENT, std::generic_category(),
                                    "cannot open " + file.string());
        }
        CacheDocument document = cache_journal::read_document(file, contents->text);
        // A full write between reading the file and its journal would leave this read without
        // the journal's entries, which the new file holds: read that one instead.
        if (attempt == 3 || cache_io::stamp_of(file) == contents->stamp) {
            return document;
        }
    }
}

bool edit_cache_file(const std::filesystem::path& file,
                     const std::function<bool(CacheDocument&)>& edit) {
    // Checked before locking so a mistyped path does not leave a stray lock file behind.
    if (!cache_io::stamp_of(file)) {
        throw std::system_error(ENOENT, std::generic_category(), "cannot open " + file.string());
    }
    const cache_io::FileLock lock(file);
    CacheDocument document = read_cache_file(file);
    if (document.is_newer_schema()) {
        throw CacheFormatError(file, "/schema_version",
                               "expected schema version " + std::to_string(cache_schema_version) +
                                   " or older, found " + std::to_string(document.schema_version) +
                                   ": the file comes from a newer spvtune and is not rewritten");
    }
    if (!edit(document)) {
        return false;
    }
    document.tool_version = std::string(spvtune_library_version());
    cache_io::remove_stale_temporaries(file);
    cache_io::write_file_atomically(file, serialize_cache(document));
    // The file now holds the journal's records; were this stopped before the removal, the
    // journal's base would no longer match the file and it would be ignored.
    cache_journal::remove(file);
    return true;
}

bool compact_cache_file(const std::filesystem::path& file) {
    if (!cache_io::stamp_of(cache_journal::journal_path(file))) {
        return false;
    }
    return edit_cache_file(file, [](CacheDocument&) { return true; });
}

bool is_cache_backup_name(const std::filesystem::path& file) {
    return file.filename().string().find(".corrupt-") != std::string::npos;
}

}  // namespace spvtune::cache
