#include <spvtune/base/digest.hpp>
#include <spvtune/cache/cache_format.hpp>

#include "cache_json_printer.hpp"
#include "cache_json_values.hpp"

namespace spvtune::cache {
namespace {

using nlohmann::json;

json statistics_json(const tune::SampleStatistics& s) {
    return {{"samples", s.samples},
            {"min_ns", cache_json::encode_double(s.min_ns)},
            {"median_ns", cache_json::encode_double(s.median_ns)},
            {"mean_ns", cache_json::encode_double(s.mean_ns)},
            {"stddev_ns", cache_json::encode_double(s.stddev_ns)},
            {"ci_low_ns", cache_json::encode_double(s.ci_low_ns)},
            {"ci_high_ns", cache_json::encode_double(s.ci_high_ns)}};
}

json entry_json(const CacheKeyRecord& record) {
    const tune::TuneEntry& entry = record.entry;
    // The leading candidates with statistics in full, then the order of the rest.
    json ranking = json::array();
    json runners_up = json::array();
    for (const tune::RankedCandidate& candidate : entry.ranking) {
        if (!runners_up.empty() || !statistics_kept(candidate.statistics)) {
            runners_up.push_back(candidate.index);
            continue;
        }
        ranking.push_back({{"name", candidate.name},
                           {"index", candidate.index},
                           {"statistics", statistics_json(candidate.statistics)},
                           {"timing_method", candidate.method},
                           {"tied_with_winner", candidate.tied_with_winner},
                           {"eliminated", candidate.eliminated}});
    }
    json failures = json::array();
    for (const tune::CandidateFailure& failure : entry.failures) {
        failures.push_back({{"name", failure.name},
                            {"index", failure.index},
                            {"kind", failure.kind},
                            {"reason", failure.reason}});
    }
    return {{"printed_key", record.printed_key},
            {"winner", {{"name", entry.winner_name}, {"index", entry.winner_index}}},
            {"ranking", std::move(ranking)},
            {"runners_up", std::move(runners_up)},
            {"failures", std::move(failures)},
            {"tuned_at", entry.tuned_at},
            {"settings", entry.settings},
            {"needs_retune", entry.needs_retune}};
}

json candidate_list_json(const CacheCandidateList& list) {
    json candidates = json::array();
    for (const tune::CandidateDescription& candidate : list.candidates) {
        candidates.push_back(
            {{"name", candidate.name}, {"content_digest", candidate.content_digest}});
    }
    json entries = json::object();
    for (const auto& [key_json, record] : list.entries) {
        entries[key_json] = entry_json(record);
    }
    return {{"candidates", std::move(candidates)}, {"entries", std::move(entries)}};
}

}  // namespace

json cache_json::tuners_json(const CacheDocument& document) {
    json tuners = json::object();
    for (const auto& [name, lists] : document.tuners) {
        json by_checksum = json::object();
        for (const auto& [checksum, list] : lists) {
            by_checksum[base::to_hex(checksum)] = candidate_list_json(list);
        }
        tuners[name] = std::move(by_checksum);
    }
    return tuners;
}

std::string serialize_cache(const CacheDocument& document) {
    const tune::HardwareIdentity& hardware = document.hardware;
    // Always this version's layout, whatever version the document was read from.
    const json root = {{"format", cache_format_name},
                       {"schema_version", cache_schema_version},
                       {"tool_version", document.tool_version},
                       {"hardware",
                        {{"key", hardware.key},
                         {"vendor_id", hardware.vendor_id},
                         {"device_id", hardware.device_id},
                         {"device_name", hardware.device_name},
                         {"driver_version", hardware.driver_version},
                         {"record", hardware.record}}},
                       {"tuners", cache_json::tuners_json(document)}};
    return cache_json::print(root);
}

}  // namespace spvtune::cache
