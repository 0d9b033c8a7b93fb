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
        EntryDifference difference{
            EntryChange::removed,      tuner, checksum,          record->printed_key,
            record->entry.winner_name, "",    winner_ns(record), winner_ns(now)};
        if (now != nullptr) {
            difference.new_winner = now->entry.winner_name;
            if (now->entry.needs_retune) {
                difference.change = EntryChange::stale;
            } else if (now->entry.winner_name != record->entry.winner_name) {
                difference.change = EntryChange::winner_changed;
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
        differences.emplace(
            address,
            EntryDifference{record->entry.needs_retune ? EntryChange::stale : EntryChange::added,
                            tuner, checksum, record->printed_key, "", record->entry.winner_name,
                            std::nullopt, winner_ns(record)});
    }
    std::vector<EntryDifference> out;
    for (auto& [address, difference] : differences) {
        out.push_back(std::move(difference));
    }
    return out;
}

}  // namespace spvtune::cache
