#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <spvtune/tune/hardware_identity.hpp>
#include <spvtune/tune/tune_entry.hpp>

namespace spvtune::cache {

/// Format name written into every cache file, so a stray JSON file is never taken for a cache.
inline constexpr std::string_view cache_format_name = "spvtune-cache";

/// Schema version this build writes. Files with a higher version are read when possible but
/// never rewritten; version 1 files (no `runners_up`) are read too.
inline constexpr int cache_schema_version = 2;

/// One settled key: its printed form (for people reading the file) and the tuning result.
struct CacheKeyRecord {
    std::string printed_key;
    tune::TuneEntry entry;
};

/// Whether a ranked candidate's statistics are known. A file keeps the full statistics of the
/// leading ranked candidates (at least the winner's) and of the rest only their order
/// (`runners_up`); those read back with 0 samples and NaN times.
bool statistics_kept(const tune::SampleStatistics& statistics) noexcept;

/// How many runners-up a store keeps the statistics of, after the winner, by default: enough
/// for `cache show` (margin to the runner-up) and `cache diff` (was a new winner tied with the
/// old one?) while the rest of a long ranking keeps only its order.
inline constexpr std::size_t default_runners_up_with_statistics = 2;

/// Keeps the statistics of the winner and of its first `runners_up_with_statistics` runners-up
/// and, of the other ranked candidates, only their order (what a winner failing at run time
/// falls back along): what a store writes unless asked to keep the whole ranking.
void keep_leading_statistics(tune::TuneEntry& entry, std::size_t runners_up_with_statistics);

/// Keeps the winner's statistics and, of the other ranked candidates, only their order: the
/// smallest file, about a third of a whole ranking's (keep_leading_statistics with none).
void keep_ranking_order_only(tune::TuneEntry& entry);

/// The entries of one candidate list, identified by its checksum.
struct CacheCandidateList {
    std::vector<tune::CandidateDescription> candidates;
    /// By canonical key JSON.
    std::map<std::string, CacheKeyRecord> entries;
};

/// The in-memory form of one cache file: everything one hardware identity has settled.
struct CacheDocument {
    /// The version the file was written with; `cache_schema_version` for new documents.
    int schema_version = cache_schema_version;
    /// The spvtune version that last wrote the file.
    std::string tool_version;
    tune::HardwareIdentity hardware;
    /// Tuner name -> candidate-list checksum -> candidate list and its entries.
    std::map<std::string, std::map<std::uint64_t, CacheCandidateList>> tuners;

    /// True when the file came from a newer spvtune: it may be read, never rewritten.
    bool is_newer_schema() const noexcept { return schema_version > cache_schema_version; }

    /// The record at `address`, or null.
    const CacheKeyRecord* find(const tune::EntryAddress& address) const;
    CacheKeyRecord* find(const tune::EntryAddress& address);

    /// Inserts or replaces the record at `address`; `candidates` are stored when the candidate
    /// list is new to this document.
    void put(const tune::EntryAddress& address,
             const std::vector<tune::CandidateDescription>& candidates, CacheKeyRecord record);

    /// Number of entries across every tuner and candidate list.
    std::size_t entry_count() const noexcept;
};

/// An empty document for `hardware`, stamped with this build's tool and schema versions.
CacheDocument make_cache_document(tune::HardwareIdentity hardware);

/// The version of spvtune this library was built as (written into every cache file).
std::string_view spvtune_library_version() noexcept;

}  // namespace spvtune::cache
