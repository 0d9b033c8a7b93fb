#include <cmath>
#include <utility>

#include <spvtune/cache/cache_document.hpp>

#include "cache_json_values.hpp"

#ifndef SPVTUNE_VERSION
#error "SPVTUNE_VERSION must be defined by the build"
#endif

namespace spvtune::cache {

const CacheKeyRecord* CacheDocument::find(const tune::EntryAddress& address) const {
    const auto tuner = tuners.find(address.tuner);
    if (tuner == tuners.end()) {
        return nullptr;
    }
    const auto list = tuner->second.find(address.checksum);
    if (list == tuner->second.end()) {
        return nullptr;
    }
    const auto record = list->second.entries.find(address.key_json);
    return record == list->second.entries.end() ? nullptr : &record->second;
}

CacheKeyRecord* CacheDocument::find(const tune::EntryAddress& address) {
    return const_cast<CacheKeyRecord*>(std::as_const(*this).find(address));
}

void CacheDocument::put(const tune::EntryAddress& address,
                        const std::vector<tune::CandidateDescription>& candidates,
                        CacheKeyRecord record) {
    CacheCandidateList& list = tuners[address.tuner][address.checksum];
    // The checksum already covers what the candidates are, so an existing description stands.
    if (list.candidates.empty()) {
        list.candidates = candidates;
    }
    list.entries.insert_or_assign(address.key_json, std::move(record));
}

bool statistics_kept(const tune::SampleStatistics& statistics) noexcept {
    return !(statistics.samples == 0 && std::isnan(statistics.median_ns));
}

void keep_leading_statistics(tune::TuneEntry& entry, std::size_t runners_up_with_statistics) {
    for (std::size_t i = 1 + runners_up_with_statistics; i < entry.ranking.size(); ++i) {
        tune::RankedCandidate& ranked = entry.ranking[i];
        ranked = cache_json::runner_up(std::move(ranked.name), ranked.index);
    }
}

void keep_ranking_order_only(tune::TuneEntry& entry) {
    keep_leading_statistics(entry, 0);
}

std::size_t CacheDocument::entry_count() const noexcept {
    std::size_t count = 0;
    for (const auto& [name, lists] : tuners) {
        for (const auto& [checksum, list] : lists) {
            count += list.entries.size();
        }
    }
    return count;
}

CacheDocument make_cache_document(tune::HardwareIdentity hardware) {
    CacheDocument document;
    document.tool_version = std::string(spvtune_library_version());
    document.hardware = std::move(hardware);
    return document;
}

std::string_view spvtune_library_version() noexcept {
    return SPVTUNE_VERSION;
}

}  // namespace spvtune::cache
