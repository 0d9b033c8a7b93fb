#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <spvtune/tune/search_trace.hpp>

namespace spvtune::tune {

/// How a sample's duration was obtained; the record keeps it so numbers are never mistaken.
enum class TimingMethod {
    device_timestamps,  ///< GPU timestamp queries around the measured dispatches
    host_clock,         ///< steady host clock around submit + wait (no timestamp support)
};

// Cache-file spellings.
NLOHMANN_JSON_SERIALIZE_ENUM(TimingMethod,
                             {
                                 {TimingMethod::device_timestamps, "device_timestamps"},
                                 {TimingMethod::host_clock, "host_clock"},
                             })

/// Summary statistics of one candidate's samples, all in nanoseconds per run.
struct SampleStatistics {
    std::size_t samples = 0;
    double min_ns = 0;
    double median_ns = 0;
    double mean_ns = 0;
    double stddev_ns = 0;
    /// Confidence interval of the median (distribution-free, from order statistics).
    double ci_low_ns = 0;
    double ci_high_ns = 0;
};

/// One measured candidate in a ranking.
struct RankedCandidate {
    std::string name;
    /// Position of the candidate in its tunable set (registration order).
    std::size_t index = 0;
    SampleStatistics statistics;
    TimingMethod method = TimingMethod::device_timestamps;
    /// True when its median's confidence interval overlaps the winner's.
    bool tied_with_winner = false;
    /// True when adaptive sampling stopped measuring it early as clearly slower: with fewer
    /// samples than the candidates that went on (never one cut when sampling ended anyway).
    bool eliminated = false;
};

/// Why a candidate took no part in the ranking.
enum class FailureKind {
    error,         ///< it returned an error while preparing or running
    wrong_output,  ///< checks mode: its output disagreed with the reference candidate
    skipped,       ///< never run for this key (negative priority, limits, unsupported feature)
};

// Cache-file spellings; failure_kind_name derives the displayed name from them.
NLOHMANN_JSON_SERIALIZE_ENUM(FailureKind, {
                                              {FailureKind::error, "error"},
                                              {FailureKind::wrong_output, "wrong_output"},
                                              {FailureKind::skipped, "skipped"},
                                          })

struct CandidateFailure {
    std::string name;
    std::size_t index = 0;
    FailureKind kind = FailureKind::error;
    std::string reason;
};

/// The settled result of tuning one key of one candidate list on one hardware.
struct TuneEntry {
    std::string winner_name;
    std::size_t winner_index = 0;
    /// Fastest first; the winner is ranking.front(). Kept whole so a winner that later fails at
    /// run time can fall back to the next-ranked candidate.
    std::vector<RankedCandidate> ranking;
    std::vector<CandidateFailure> failures;
    /// UTC time of tuning, ISO 8601 (e.g. "2026-11-29T19:30:00Z").
    std::string tuned_at;
    /// The measurement settings in force, as JSON, so a reader knows how the numbers were made.
    nlohmann::json settings = nlohmann::json::object();
    /// Set when a re-tune began and has not saved its result yet: the next execute re-tunes.
    bool needs_retune = false;
    /// Which points the search measured, in order: only in the entry the tuning run made (never
    /// stored; `settings` keeps the search's summary).
    std::optional<SearchTrace> search;
    /// Checks mode: the set index of the candidate outputs were checked against, once every
    /// reference at fault gave way: only in the entry the tuning run made (never stored).
    std::optional<std::size_t> reference;
};

/// A candidate as the cache file describes a candidate list: its name and the caller's digest
/// of what it is (for SPIR-V: code hash, entry point, specialization values, dispatch rule).
struct CandidateDescription {
    std::string name;
    std::string content_digest;
};

/// Where an entry lives: (tuner name, candidate-list checksum, key). A changed candidate list
/// has another checksum, so old entries never answer for it.
struct EntryAddress {
    std::string tuner;
    std::uint64_t checksum = 0;
    /// Canonical JSON of the key (compact dump of the key's to_json, keys sorted).
    std::string key_json;

    friend bool operator==(const EntryAddress&, const EntryAddress&) = default;
};

}  // namespace spvtune::tune
