#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <spvtune/cache/cache_document.hpp>
#include <spvtune/cache/cache_lookup.hpp>
#include <spvtune/cache/cache_warning.hpp>
#include <spvtune/tune/tune_store.hpp>

namespace spvtune::cache {

struct CacheFileStoreOptions {
    /// Whether a cache made with another driver of the same device answers loads (read-only)
    /// when this hardware has no file of its own; see find_cache_file.
    DriverMismatch driver_mismatch = DriverMismatch::refuse;
    /// Where warnings go: unusable files moved aside, newer schema versions, an unwritable
    /// directory, driver mismatches. Each situation is reported once per store and file.
    WarningSink warn = warn_to_stderr;
    /// Never write into the directory (caches shipped with an application): saves and re-tune
    /// marks stay in memory, and a corrupt file is reported and left where it is, not moved
    /// aside. No lock file is created either.
    bool read_only = false;
    /// Write every ranked candidate's statistics. By default only those of the winner and of
    /// `runners_up_with_statistics` runners-up are written and, of the others, their order (what
    /// a winner that fails at run time falls back along), which keeps files small and quick to
    /// load.
    bool keep_ranking = false;
    /// How many runners-up keep their statistics when the ranking is not kept whole.
    std::size_t runners_up_with_statistics = default_runners_up_with_statistics;
};

/// The persistent cache: one JSON file per hardware identity in one directory.
///
/// Every save, under an advisory lock on a sidecar "<file>.lock", reads what the file and its
/// journal gained since the store last looked and appends the entry to the journal
/// ("<file>.journal", flushed to disk before save returns); a full atomic rewrite of the file
/// folds the journal in when it has grown, or when the file is new or of an older schema
/// version. Concurrent processes keep each other's entries, and a crash never loses a stored
/// entry nor leaves a file that does not load. Loads see the journal's entries too. For an address
/// that is already settled in the file, the first entry is kept and reported in StoreOutcome::kept.
/// A corrupt file is moved aside to
/// "<stem>.corrupt-<UTC time>.json" and the store continues empty; a file from a newer schema
/// version is read but never rewritten; a directory that cannot be written degrades the store to
/// memory. None of these fail the caller. Thread-safe.
class CacheFileStore final : public tune::TuneStore {
  public:
    explicit CacheFileStore(std::filesystem::path directory, CacheFileStoreOptions options = {});
    ~CacheFileStore() override;
    CacheFileStore(const CacheFileStore&) = delete;
    CacheFileStore& operator=(const CacheFileStore&) = delete;

    const std::filesystem::path& directory() const noexcept;

    /// The file that holds `hardware`'s entries (it may not exist yet).
    std::filesystem::path file_for(const tune::HardwareIdentity& hardware) const;

    std::optional<tune::TuneEntry> load(const tune::HardwareIdentity& hardware,
                                        const tune::EntryAddress& address) override;

    tune::StoreOutcome save(const tune::HardwareIdentity& hardware,
                            const tune::EntryAddress& address,
                            const std::vector<tune::CandidateDescription>& candidates,
                            const std::string& key_display, const tune::TuneEntry& entry) override;

    std::vector<std::string> keys(const tune::HardwareIdentity& hardware, const std::string& tuner,
                                  std::uint64_t checksum) override;

    void mark_needs_retune(const tune::HardwareIdentity& hardware,
                           const tune::EntryAddress& address) override;

    /// Folds the journal of `hardware`'s file into the file (a full write under the lock, as
    /// compact_cache_file does), so that the file alone holds every entry, as people read,
    /// commit and ship it: for the end of a run whose saves went to the journal. Returns
    /// whether it did; a read-only store never writes. A failure is a warning, never an error:
    /// the journal stays, and every reader still takes its entries in.
    bool fold_journal(const tune::HardwareIdentity& hardware);

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace spvtune::cache
