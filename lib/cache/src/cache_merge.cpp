#include <algorithm>
#include <map>
#include <tuple>

#include <spvtune/cache/cache_format.hpp>
#include <spvtune/cache/cache_merge.hpp>

namespace spvtune::cache {
namespace {

const tune::SampleStatistics* winner_statistics(const tune::TuneEntry& entry) {
    return entry.ranking.empty() ? nullptr : &entry.ranking.front().statistics;
}

double relative_width(const tune::SampleStatistics& statistics) {
    return statistics.median_ns > 0
               ? (statistics.ci_high_ns - statistics.ci_low_ns) / statistics.median_ns
               : 0;
}

/// The entry's text in a file of its own: a total order for entries equal in evidence.
std::string entry_text(const tune::HardwareIdentity& hardware, const tune::EntryAddress& address,
                       const CacheKeyRecord& record) {
    CacheDocument alone;
    alone.hardware = hardware;
    alone.put(address, {}, record);
    return serialize_cache(alone);
}

}  // namespace

bool has_more_evidence(const tune::TuneEntry& a, const tune::TuneEntry& b) {
    if (a.needs_retune != b.needs_retune) {
        return !a.needs_retune;
    }
    const tune::SampleStatistics* sa = winner_statistics(a);
    const tune::SampleStatistics* sb = winner_statistics(b);
    const std::size_t samples_a = sa ? sa->samples : 0;
    const std::size_t samples_b = sb ? sb->samples : 0;
    if (samples_a != samples_b) {
        return samples_a > samples_b;
    }
    if (sa && sb && relative_width(*sa) != relative_width(*sb)) {
        return relative_width(*sa) < relative_width(*sb);
    }
    // ISO 8601 UTC times order as strings.
    return a.tuned_at > b.tuned_at;
}

MergedCaches merge_caches(const std::vector<CacheDocument>& sources) {
    // Every source's record per address first, so the choice never depends on source order.
    struct Offer {
        const CacheDocument* source;
        const CacheCandidateList* list;
        const CacheKeyRecord* record;
    };
    std::map<std::tuple<std::string, std::string, std::uint64_t, std::string>, std::vector<Offer>>
        offers;
    MergedCaches merged;
    for (const CacheDocument& source : sources) {
        // Records of one identity may differ in fields outside the key: keep the smallest, so
        // the choice does not depend on the order of the sources either.
        auto [found, inserted] =
            merged.documents.try_emplace(source.hardware.key, make_cache_document(source.hardware));
        if (!inserted && source.hardware.record.dump() < found->second.hardware.record.dump()) {
            found->second.hardware = source.hardware;
        }
        for (const auto& [tuner, lists] : source.tuners) {
            for (const auto& [checksum, list] : lists) {
                for (const auto& [key_json, record] : list.entries) {
                    offers[{source.hardware.key, tuner, checksum, key_json}].push_back(
                        {&source, &list, &record});
                }
            }
        }
    }
    for (const auto& [where, candidates] : offers) {
        const auto& [hardware, tuner, checksum, key_json] = where;
        const tune::EntryAddress address{tuner, checksum, key_json};
        auto better = [&](const Offer& a, const Offer& b) {
            if (has_more_evidence(a.record->entry, b.record->entry)) {
                return true;
            }
            if (has_more_evidence(b.record->entry, a.record->entry)) {
                return false;
            }
            return entry_text(a.source->hardware, address, *a.record) <
                   entry_text(b.source->hardware, address, *b.record);
        };
        const Offer& best = *std::min_element(candidates.begin(), candidates.end(), better);
        merged.documents.at(hardware).put(address, best.list->candidates, *best.record);
        for (const Offer& other : candidates) {
            if (other.record->entry.winner_name != best.record->entry.winner_name) {
                merged.conflicts.push_back({hardware, tuner, checksum, best.record->printed_key,
                                            best.record->entry.winner_name,
                                            other.record->entry.winner_name});
            }
        }
    }
    auto order = [](const MergeConflict& c) {
        return std::tie(c.hardware, c.tuner, c.checksum, c.printed_key, c.kept_winner,
                        c.dropped_winner);
    };
    std::sort(merged.conflicts.begin(), merged.conflicts.end(),
              [&](const MergeConflict& a, const MergeConflict& b) { return order(a) < order(b); });
    merged.conflicts.erase(std::unique(merged.conflicts.begin(), merged.conflicts.end(),
                                       [&](const MergeConflict& a, const MergeConflict& b) {
                                           return order(a) == order(b);
                                       }),
                           merged.conflicts.end());
    return merged;
}

}  // namespace spvtune::cache
