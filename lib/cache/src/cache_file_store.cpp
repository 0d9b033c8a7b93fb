#include <algorithm>
#include <exception>
#include <mutex>
#include <string>
#include <system_error>
#include <unordered_map>

#include <spvtune/cache/cache_file.hpp>
#include <spvtune/cache/cache_file_store.hpp>
#include <spvtune/cache/cache_format.hpp>
#include <spvtune/cache/cache_location.hpp>

#include "cache_file_io.hpp"
#include "cache_journal.hpp"
#include "cache_json_values.hpp"

namespace spvtune::cache {
namespace {

namespace fs = std::filesystem;

// What the store knows about one hardware identity's file.
struct HardwareState {
    std::optional<fs::path> file;  ///< none when the identity key cannot name a file
    /// Mirrors the file as of `stamp` unless `frozen`; then it is the in-memory cache.
    CacheDocument document;
    std::optional<cache_io::FileStamp> stamp;
    /// The file's content hash (its journal's base) and size as of `stamp`.
    std::uint64_t content_hash = 0;
    std::size_t size = 0;
    /// How far the journal has been read: just past its last valid record; 0 when it has none.
    std::uint64_t journal_end = 0;
    bool read = false;
    /// The file is never written again by this store (newer schema, unreadable, not movable);
    /// results for this hardware are kept in memory only.
    bool frozen = false;
    std::string frozen_reason;
    /// Another driver's cache for the same device, when the options allow one.
    std::optional<CacheDocument> fallback;
    bool fallback_checked = false;
};

// A format error nobody could fix by reading the file again (as opposed to an I/O error).
struct ReadResult {
    bool corrupt = false;
    std::string problem;
};

// The version as the file writes it, even beyond an int, so the message quotes the file.
std::optional<std::uint64_t> newer_schema_version(const std::string& text) {
    const auto root = nlohmann::json::parse(text, nullptr, false);
    if (root.is_object() && root.contains("schema_version") &&
        root["schema_version"].is_number_unsigned() &&
        root["schema_version"].get<std::uint64_t>() > cache_schema_version) {
        return root["schema_version"].get<std::uint64_t>();
    }
    return std::nullopt;
}

std::string kept_message(const tune::EntryAddress& address, const std::string& key_display,
                         const tune::TuneEntry& kept, const tune::TuneEntry& rejected) {
    return "kept the winner \"" + kept.winner_name + "\" settled first for tuner \"" +
           address.tuner + "\" key " + key_display + " (by another run); this run's winner \"" +
           rejected.winner_name + "\" was not stored";
}

}  // namespace

struct CacheFileStore::Impl {
    fs::path directory;
    CacheFileStoreOptions options;
    std::mutex mutex;
    std::unordered_map<std::string, HardwareState> states;
    std::optional<std::string> memory_only_reason;

    void warn(const std::string& message) const {
        if (options.warn) {
            options.warn(message);
        }
    }

    HardwareState& state_for(const tune::HardwareIdentity& hardware) {
        auto [it, inserted] = states.try_emplace(hardware.key);
        HardwareState& state = it->second;
        if (inserted) {
            state.document = make_cache_document(hardware);
            try {
                state.file = directory / cache_file_name(hardware);
            } catch (const std::invalid_argument& error) {
                freeze(state, error.what());
            }
        }
        return state;
    }

    void freeze(HardwareState& state, std::string reason) {
        state.frozen = true;
        state.frozen_reason = std::move(reason);
        warn(state.frozen_reason + "; results for this hardware are kept in memory only");
    }

    void degrade(const std::string& reason) {
        if (!memory_only_reason) {
            memory_only_reason =
                "cache directory " + directory.string() + " cannot be written (" + reason + ")";
            warn(*memory_only_reason + "; tuning results are kept in memory only for this run");
        }
    }

    bool in_memory(const HardwareState& state) const {
        return memory_only_reason.has_value() || state.frozen;
    }

    /// Whether results for this hardware can only be kept in memory (read-only store included).
    bool unwritable(const HardwareState& state) const {
        return options.read_only || in_memory(state);
    }

    std::string memory_reason(const HardwareState& state) const {
        if (state.frozen) {
            return state.frozen_reason;
        }
        if (options.read_only) {
            return "the cache directory " + directory.string() + " is read-only for this store";
        }
        return memory_only_reason.value_or("");
    }

    // Brings `state.document` in line with the file. Without the lock a corrupt file is only
    // reported, because moving it aside is a write that must not race another process's save.
    ReadResult read(HardwareState& state, const tune::HardwareIdentity& hardware, bool locked) {
        const fs::path& file = *state.file;
        const auto stamp = cache_io::stamp_of(file);
        if (state.read && stamp == state.stamp) {
            ReadResult result;
            if (!stamp || catch_up_journal(state, locked, result)) {
                return result;
            }
            state.read = false;  // the journal was replaced: read both again
            return read(state, hardware, locked);
        }
        const auto contents = cache_io::read_file(file);
        state.read = true;
        state.journal_end = 0;
        if (!contents) {
            state.document = make_cache_document(hardware);
            state.stamp.reset();
            return {};
        }
        try {
            CacheDocument document = parse_cache(contents->text, file);
            // The file is found by its name: results of other hardware under this name (a copy
            // renamed by hand) would be run here as if measured here.
            if (document.hardware.key != hardware.key) {
                throw CacheFormatError(file, "/hardware/key",
                                       "expected \"" + hardware.key +
                                           "\", the hardware the file name is for, found \"" +
                                           document.hardware.key + "\"");
            }
            if (document.is_newer_schema()) {
                freeze(state, file.string() + " has cache schema version " +
                                  std::to_string(document.schema_version) +
                                  " (written by spvtune " + document.tool_version +
                                  "), newer than version " + std::to_string(cache_schema_version) +
                                  " that this spvtune writes: it is read but never rewritten");
            }
            state.document = std::move(document);
            state.stamp = contents->stamp;
            state.content_hash = cache_journal::content_hash(contents->text);
            state.size = contents->text.size();
        } catch (const CacheFormatError& error) {
            state.document = make_cache_document(hardware);
            state.stamp.reset();
            if (const auto version = newer_schema_version(contents->text)) {
                freeze(state,
                       file.string() + " has cache schema version " + std::to_string(*version) +
                           ", newer than this spvtune understands, and could not be read (" +
                           error.problem() + " at " + error.pointer() + "): it is left untouched");
                return {};
            }
            if (options.read_only) {
                freeze(state, std::string(error.what()) + "; the file is left untouched");
                return {};
            }
            if (!locked) {
                state.read = false;
                return {true, error.what()};
            }
            const fs::path backup = cache_io::move_aside(file, "corrupt");
            warn(std::string(error.what()) + "; the file was moved aside to " + backup.string() +
                 " and tuning continues with an empty cache");
            return {};
        }
        ReadResult result;
        catch_up_journal(state, locked, result);
        return result;
    }

    // Applies the journal's records added since the last look; false when the journal was
    // replaced under this store (it then rereads the file too). A damaged journal is kept, as a
    // corrupt file is: under the lock it is moved aside whole (the records after the damage
    // are only there) and the file rewritten with the records before it; without the lock
    // `result` says so, for the caller to read again under it.
    bool catch_up_journal(HardwareState& state, bool locked, ReadResult& result) {
        if (state.document.schema_version != cache_schema_version) {
            return true;  // only files this version writes get records appended
        }
        cache_journal::ReadResult journal =
            cache_journal::read(*state.file, state.content_hash, state.journal_end);
        if (journal.restart) {
            return false;
        }
        cache_journal::apply(state.document, journal.records);
        state.journal_end = std::max(state.journal_end, journal.valid_end);
        if (!journal.damage.empty()) {
            keep_damaged_journal(state, journal.damage, locked, result);
        }
        return true;
    }

    void keep_damaged_journal(HardwareState& state, const std::string& damage, bool locked,
                              ReadResult& result) {
        const fs::path journal = cache_journal::journal_path(*state.file);
        const std::string problem = journal.string() + " is damaged: " + damage;
        if (options.read_only) {
            freeze(state, problem +
                              "; the entries before the damage are used and the journal "
                              "is left untouched");
            return;
        }
        if (!locked) {
            state.read = false;
            result = {true, problem};
            return;
        }
        // Aside first: were this stopped before the write, the file would not match the
        // journal's base, and a journal left in place would be ignored and later cut off.
        const fs::path backup = cache_journal::keep_aside(*state.file);
        write(state);
        warn(problem + "; it was moved aside to " + backup.string() +
             " with every line, and the entries before the damage are kept in " +
             state.file->string());
    }

    void refresh(HardwareState& state, const tune::HardwareIdentity& hardware) {
        if (in_memory(state)) {
            return;
        }
        ReadResult result;
        try {
            result = read(state, hardware, false);
            if (result.corrupt) {
                const cache_io::FileLock lock(*state.file);
                read(state, hardware, true);
            }
        } catch (const std::system_error& error) {
            freeze(state, (result.corrupt ? result.problem + "; " : std::string()) +
                              "cannot use cache file " + state.file->string() + " (" +
                              error.what() + "): it is left untouched");
        }
    }

    const CacheKeyRecord* fallback_record(HardwareState& state,
                                          const tune::HardwareIdentity& hardware,
                                          const tune::EntryAddress& address) {
        if (options.driver_mismatch == DriverMismatch::refuse) {
            return nullptr;
        }
        if (!state.fallback_checked) {
            state.fallback_checked = true;
            if (state.stamp || !state.document.tuners.empty()) {
                return nullptr;  // this hardware has its own cache: no mismatch to fall back on
            }
            const auto found =
                find_cache_file(directory, hardware, options.driver_mismatch, options.warn);
            if (found && found->match == CacheMatch::driver_mismatch) {
                try {
                    state.fallback = read_cache_file(found->file);
                    warn("using " + found->file.string() + " for " + hardware.device_name + " (" +
                         found->description + ")");
                } catch (const std::exception& error) {
                    warn("skipping cache " + found->file.string() + ": " + error.what());
                }
            }
        }
        return state.fallback ? state.fallback->find(address) : nullptr;
    }

    tune::StoreOutcome save_in_memory(HardwareState& state, const tune::EntryAddress& address,
                                      const std::vector<tune::CandidateDescription>& candidates,
                                      CacheKeyRecord record) {
        if (const CacheKeyRecord* existing = state.document.find(address);
            existing && !existing->entry.needs_retune) {
            return {false, existing->entry,
                    kept_message(address, record.printed_key, existing->entry, record.entry)};
        }
        state.document.put(address, candidates, std::move(record));
        return {false, std::nullopt, "kept in memory only: " + memory_reason(state)};
    }

    tune::StoreOutcome save(HardwareState& state, const tune::HardwareIdentity& hardware,
                            const tune::EntryAddress& address,
                            const std::vector<tune::CandidateDescription>& candidates,
                            CacheKeyRecord record) {
        if (unwritable(state)) {
            if (options.read_only && !in_memory(state)) {
                refresh(state, hardware);  // keep a settled entry from the file, as a save would
            }
            return save_in_memory(state, address, candidates, std::move(record));
        }
        bool inserted = false;
        try {
            fs::create_directories(directory);
            const cache_io::FileLock lock(*state.file);
            cache_io::remove_stale_temporaries(*state.file);
            read(state, hardware, true);
            if (state.frozen) {
                return save_in_memory(state, address, candidates, std::move(record));
            }
            if (const CacheKeyRecord* existing = state.document.find(address);
                existing && !existing->entry.needs_retune) {
                return {false, existing->entry,
                        kept_message(address, record.printed_key, existing->entry, record.entry)};
            }
            persist(state, cache_journal::Record{address, candidates, std::move(record)});
            inserted = true;
            return {true, std::nullopt, {}};
        } catch (const std::system_error& error) {
            degrade(error.what());
            if (!inserted) {
                return save_in_memory(state, address, candidates, std::move(record));
            }
            return {false, std::nullopt, "kept in memory only: " + memory_reason(state)};
        }
    }

    void mark_needs_retune(HardwareState& state, const tune::HardwareIdentity& hardware,
                           const tune::EntryAddress& address) {
        const auto mark = [&] {
            CacheKeyRecord* record = state.document.find(address);
            const bool changed = record != nullptr && !record->entry.needs_retune;
            if (changed) {
                record->entry.needs_retune = true;
            }
            return changed;
        };
        // The marked entry, as a journal record of the whole entry.
        const auto marked = [&] {
            const auto lists = state.document.tuners.find(address.tuner);
            return cache_journal::Record{address, lists->second.at(address.checksum).candidates,
                                         *state.document.find(address)};
        };
        if (unwritable(state)) {
            if (options.read_only && !in_memory(state)) {
                refresh(state, hardware);
            }
            mark();
            return;
        }
        try {
            if (!cache_io::stamp_of(*state.file)) {
                return;  // no file, so no entry to mark
            }
            const cache_io::FileLock lock(*state.file);
            read(state, hardware, true);
            if (mark() && !state.frozen) {
                persist(state, marked());
            }
        } catch (const std::system_error& error) {
            degrade(error.what());
            mark();
        }
    }

    // Records one entry in the file: a record appended to the journal while the file is one
    // this version wrote and the journal is small next to it, else a full write that folds the
    // journal in. The document already holds the entry afterwards. Called under the lock.
    void persist(HardwareState& state, cache_journal::Record record) {
        // Past this the journal's records would cost loads more than an occasional full write.
        const std::uint64_t journal_limit = 64 * 1024 + state.size / 16;
        const bool append = state.stamp.has_value() &&
                            state.document.schema_version == cache_schema_version &&
                            state.journal_end < journal_limit;
        if (append) {
            state.journal_end =
                cache_journal::append(*state.file, state.content_hash, state.journal_end, record);
        }
        state.document.put(record.address, record.candidates, std::move(record.record));
        if (!append) {
            write(state);
        }
    }

    void write(HardwareState& state) {
        state.document.schema_version = cache_schema_version;
        state.document.tool_version = std::string(spvtune_library_version());
        const std::string text = serialize_cache(state.document);
        cache_io::write_file_atomically(*state.file, text);
        // The file holds the journal's records now (a stale journal is ignored if this stops).
        cache_journal::remove(*state.file);
        state.stamp = cache_io::stamp_of(*state.file);
        state.content_hash = cache_journal::content_hash(text);
        state.size = text.size();
        state.journal_end = 0;
    }
};

CacheFileStore::CacheFileStore(fs::path directory, CacheFileStoreOptions options)
    : impl_(std::make_unique<Impl>()) {
    impl_->directory = std::move(directory);
    impl_->options = std::move(options);
}

CacheFileStore::~CacheFileStore() = default;

const fs::path& CacheFileStore::directory() const noexcept {
    return impl_->directory;
}

fs::path CacheFileStore::file_for(const tune::HardwareIdentity& hardware) const {
    return impl_->directory / cache_file_name(hardware);
}

std::optional<tune::TuneEntry> CacheFileStore::load(const tune::HardwareIdentity& hardware,
                                                    const tune::EntryAddress& address) {
    const std::lock_guard guard(impl_->mutex);
    HardwareState& state = impl_->state_for(hardware);
    impl_->refresh(state, hardware);
    if (const CacheKeyRecord* record = state.document.find(address)) {
        return record->entry;
    }
    if (const CacheKeyRecord* record = impl_->fallback_record(state, hardware, address)) {
        return record->entry;
    }
    return std::nullopt;
}

std::vector<std::string> CacheFileStore::keys(const tune::HardwareIdentity& hardware,
                                              const std::string& tuner, std::uint64_t checksum) {
    const std::lock_guard guard(impl_->mutex);
    HardwareState& state = impl_->state_for(hardware);
    impl_->refresh(state, hardware);
    // Reads another driver's file where the options allow one and this hardware has none.
    impl_->fallback_record(state, hardware, {tuner, checksum, {}});
    const CacheDocument& document =
        state.fallback && state.document.tuners.empty() ? *state.fallback : state.document;
    std::vector<std::string> found;
    if (const auto lists = document.tuners.find(tuner); lists != document.tuners.end()) {
        if (const auto list = lists->second.find(checksum); list != lists->second.end()) {
            for (const auto& entry : list->second.entries) {
                found.push_back(entry.first);
            }
        }
    }
    return found;
}

tune::StoreOutcome CacheFileStore::save(const tune::HardwareIdentity& hardware,
                                        const tune::EntryAddress& address,
                                        const std::vector<tune::CandidateDescription>& candidates,
                                        const std::string& key_display,
                                        const tune::TuneEntry& entry) {
    // The reader rejects entry names that are not JSON, so they must never be written.
    if (!cache_json::is_json_text(address.key_json)) {
        return {false, std::nullopt,
                "not stored: the key " + key_display + " has no JSON form (\"" + address.key_json +
                    "\")"};
    }
    // Nor a winner the readers would refuse (docs/cache-format.md): one outside the list, or
    // named after another candidate than the one its index runs, would make the whole file
    // corrupt for every later reader.
    if (entry.winner_index >= candidates.size() ||
        candidates[entry.winner_index].name != entry.winner_name) {
        return {false, std::nullopt,
                "not stored: the winner \"" + entry.winner_name + "\" of key " + key_display +
                    " is not candidate " + std::to_string(entry.winner_index) + " of the list of " +
                    std::to_string(candidates.size())};
    }
    CacheKeyRecord record{key_display, entry};
    if (!impl_->options.keep_ranking) {
        keep_leading_statistics(record.entry, impl_->options.runners_up_with_statistics);
    }
    const std::lock_guard guard(impl_->mutex);
    HardwareState& state = impl_->state_for(hardware);
    return impl_->save(state, hardware, address, candidates, std::move(record));
}

void CacheFileStore::mark_needs_retune(const tune::HardwareIdentity& hardware,
                                       const tune::EntryAddress& address) {
    const std::lock_guard guard(impl_->mutex);
    impl_->mark_needs_retune(impl_->state_for(hardware), hardware, address);
}

bool CacheFileStore::fold_journal(const tune::HardwareIdentity& hardware) {
    if (impl_->options.read_only) {
        return false;
    }
    const std::lock_guard guard(impl_->mutex);
    try {
        return compact_cache_file(file_for(hardware));
    } catch (const std::exception& error) {
        impl_->warn(std::string("the cache file's journal was not folded in: ") + error.what());
        return false;
    }
}

}  // namespace spvtune::cache
