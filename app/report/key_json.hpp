#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include <spvtune/problem/problem.hpp>
#include <spvtune/run/problem_tuning.hpp>
#include <spvtune/tune/tune_entry.hpp>

namespace spvtune::app {

/// A family as a candidate's `family` names it: `name`, or `name[variant]` for a variant.
std::string family_name(const problem::CandidateFamily& family);

/// Each candidate family with its grid, once, in file order:
/// `[{"name", "grid": [{"parameter", "values"}]}]`.
nlohmann::json families_json(const problem::Problem& problem);

/// The search that chose the key's measured points: its summary as the cache records it, and
/// the trace of every point in the order first measured (each with `elapsed_s` where known).
nlohmann::json search_json(const tune::TuneEntry& entry);

/// The full machine-readable record of one key, every sample included.
nlohmann::json key_report_json(const problem::Problem& problem, const run::KeyReport& report,
                               std::size_t warmup_runs);

}  // namespace spvtune::app
