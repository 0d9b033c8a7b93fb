#include "shard_costs.hpp"

#include <algorithm>
#include <cmath>

#include <spvtune/cache/cache_document.hpp>

#include "cache_files.hpp"

namespace spvtune::app {

double recorded_cost(const tune::TuneEntry& entry) {
    double total = 0;
    double last_kept = 0;
    for (const tune::RankedCandidate& ranked : entry.ranking) {
        const tune::SampleStatistics& statistics = ranked.statistics;
        // A cache file is untrusted: only finite, non-negative times count.
        if (cache::statistics_kept(statistics) && std::isfinite(statistics.median_ns) &&
            statistics.median_ns >= 0) {
            last_kept = static_cast<double>(std::max<std::size_t>(statistics.samples, 1)) *
                        statistics.median_ns;
        }
        total += last_kept;
    }
    return total;
}

tune::Result<RecordedCosts> RecordedCosts::read(const std::filesystem::path& directory) {
    RecordedCosts costs;
    for (const std::filesystem::path& file : list_directory(directory).caches) {
        const auto document = read_or_report(file);
        if (!document) {
            return tune::fail("--shard-costs " + directory.string() + ": " + file.string() +
                              " is not a cache file spvtune can read (see above)");
        }
        for (const auto& [tuner, lists] : document->tuners) {
            for (const auto& [checksum, list] : lists) {
                for (const auto& [key_json, record] : list.entries) {
                    double& cost = costs.costs_[{tuner, key_json}];
                    cost = std::max(cost, recorded_cost(record.entry));
                }
            }
        }
    }
    return costs;
}

std::optional<double> RecordedCosts::find(const std::string& tuner,
                                          const std::string& key_json) const {
    const auto found = costs_.find({tuner, key_json});
    if (found == costs_.end() || found->second <= 0) {
        return std::nullopt;
    }
    return found->second;
}

}  // namespace spvtune::app
