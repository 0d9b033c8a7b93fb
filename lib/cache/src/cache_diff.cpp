#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include <spvtune/base/enum_names.hpp>
#include <spvtune/cache/cache_diff.hpp>

namespace spvtune::cache {
namespace {

constexpr base::EnumNames<EntryChange, 4> entry_change_names{{
    {EntryChange::added, "added"},
    {EntryChange::removed, "removed"},
    {EntryChange::winner_changed, "winner changed"},
    {EntryChange::stale, "stale"},
}};

using Address = std::tuple<std::string, std::uint64_t, std::string>;

std::map<Address, const CacheKeyRecord*> by_address(const CacheDocument& document) {
    std::map<Address, const CacheKeyRecord*> records;
    for (const auto& [tuner, lists] : document.tuners) {
        for (const auto& [checksum, list] : lists) {
            for (const auto& [key_json, record] : list.entries) {
                records.emplace(Address{tuner, checksum, key_json}, &record);
            }
        }
    }
    return records;
}

std::optional<double> winner_ns(const CacheKeyRecord* record) {
    if (record == nullptr || record->entry.ranking.empty()) {
        return std::nullopt;
    }
    return record->entry.ranking.front().statistics.median_ns;
}

std::optional<MedianInterval> winner_interval(const CacheKeyRecord* record) {
    if (record == nullptr || record->entry.ranking.empty() ||
        !statistics_kept(record->entry.ranking.front().statistics)) {
        return std::nullopt;
    }
    const tune::SampleStatistics& statistics = record->entry.ranking.front().statistics;
    if (!std::isfinite(statistics.ci_low_ns) || !std::isfinite(statistics.ci_high_ns)) {
        return std::nullopt;
    }
    return MedianInterval{statistics.ci_low_ns, statistics.ci_high_ns};
}

// Whether `entry`'s run ranked the candidate `index` tied with its winner (statistics kept).
bool ranked_tied(const tune::TuneEntry& entry, std::size_t index) {
    return std::ranges::any_of(entry.ranking, [&](const tune::RankedCandidate& ranked) {
        return ranked.index == index && ranked.tied_with_winner &&
               statistics_kept(ranked.statistics);
    });
}

std::string noise_reason(const CacheKeyRecord& old_record, const CacheKeyRecord& new_record,
                         const EntryDifference& difference) {
    if (ranked_tied(new_record.entry, old_record.entry.winner_index)) {
        return "tied with " + old_record.entry.winner_name + " in the new run";
    }
    if (ranked_tied(old_record.entry, new_record.entry.winner_index)) {
        return "tied with " + new_record.entry.winner_name + " in the old run";
    }
    const auto& old_interval = difference.old_interval;
    const auto& new_interval = difference.new_interval;
    if (old_interval && new_interval && old_interval->low_ns <= new_interval->high_ns &&
        new_interval->low_ns <= old_interval->high_ns) {
        return "the winners' intervals overlap";
    }
    return "";
}

}  // namespace

std::string_view entry_change_name(EntryChange change) noexcept {
    return base::name_of(entry_change_names, change);
}

std::vector<EntryDifference> diff_caches(const CacheDocument& old_document,
                                         const CacheDocument& new_document) {
    const auto old_records = by_address(old_document);
    const auto new_records = by_address(new_document);
    std::map<Address, EntryDifference> differences;
    for (const auto& [address, record] : old_records) {
        const auto& [tuner, checksum, key] = address;
        const auto found = new_records.find(address);
        const CacheKeyRecord* now = found == new_records.end() ? nullptr : found->second;
        EntryDifference difference{EntryChange::removed,
                                   tuner,
                                   checksum,
                                   record->printed_key,
                                   record->entry.winner_name,
                                   "",
                                   winner_ns(record),
                                   winner_ns(now),
                                   winner_interval(record),
                                   winner_interval(now),
                                   ""};
        if (now != nullptr) {
            difference.new_winner = now->entry.winner_name;
            if (now->entry.needs_retune) {
                difference.change = EntryChange::stale;
            } else if (now->entry.winner_name != record->entry.winner_name) {
                difference.change = EntryChange::winner_changed;
                difference.within_noise = noise_reason(*record, *now, difference);
            } else {
                continue;
            }
        }
        differences.emplace(address, std::move(difference));
    }
    for (const auto& [address, record] : new_records) {
        if (old_records.contains(address)) {
            continue;
        }
        const auto& [tuner, checksum, key] = address;
        EntryDifference difference{
            record->entry.needs_retune ? EntryChange::stale : EntryChange::added,
            tuner,
            checksum,
            record->printed_key,
            "",
            record->entry.winner_name,
            std::nullopt,
            winner_ns(record),
            std::nullopt,
            winner_interval(record),
            ""};
        differences.emplace(address, std::move(difference));
    }
    std::vector<EntryDifference> out;
    for (auto& [address, difference] : differences) {
        out.push_back(std::move(difference));
    }
    return out;
}

}  // namespace spvtune::cache
