#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <spvtune/cache/cache_document.hpp>

namespace spvtune::cache {

/// Two sources settled one address with different winners; the merge kept `kept`.
struct MergeConflict {
    std::string hardware;  ///< the hardware identity key
    std::string tuner;
    std::uint64_t checksum = 0;
    std::string printed_key;
    std::string kept_winner;
    std::string dropped_winner;
};

struct MergedCaches {
    /// One document per hardware identity key.
    std::map<std::string, CacheDocument> documents;
    /// Sorted by hardware, tuner, checksum, key, then winners.
    std::vector<MergeConflict> conflicts;
};

/// Whether entry `a` carries more evidence than `b`: one not marked for re-tune, then more
/// samples of its winner, then the narrower interval of its winner's median relative to the
/// median, then the newer tuning time. Nothing else decides; see merge_caches for full ties.
bool has_more_evidence(const tune::TuneEntry& a, const tune::TuneEntry& b);

/// Combines cache documents from many machines into one document per hardware identity. An
/// address settled in several sources keeps the entry with more evidence (has_more_evidence;
/// a full tie is broken by the entries' serialized text), so the result, the conflicts and the
/// bytes serialize_cache writes for it do not depend on the order of `sources`. The documents
/// are stamped with this build's tool version.
MergedCaches merge_caches(const std::vector<CacheDocument>& sources);

}  // namespace spvtune::cache
