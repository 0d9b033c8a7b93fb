#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include <spvtune/tune/result.hpp>
#include <spvtune/tune/tune_entry.hpp>

namespace spvtune::app {

/// How long tuning an entry's key took, as far as the entry records it, in nanoseconds: each
/// ranked candidate's samples times its median; a candidate whose statistics are not kept counts
/// as the last one that has them. 0 when nothing was measured.
double recorded_cost(const tune::TuneEntry& entry);

/// The tuning times an earlier cache directory records (tune --shard-costs DIR), by tuner and
/// canonical key JSON, whatever the candidate list; the costliest where several lists have one.
class RecordedCosts {
  public:
    /// Every cache file of `directory`; an invalid one is reported (stderr) and fails the read.
    static tune::Result<RecordedCosts> read(const std::filesystem::path& directory);

    std::optional<double> find(const std::string& tuner, const std::string& key_json) const;

  private:
    std::map<std::pair<std::string, std::string>, double> costs_;
};

}  // namespace spvtune::app
