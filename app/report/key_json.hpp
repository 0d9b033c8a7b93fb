#pragma once

#include <cstddef>

#include <nlohmann/json.hpp>

#include <spvtune/problem/problem.hpp>
#include <spvtune/problem/problem_tuning.hpp>

namespace spvtune::app {

/// The full machine-readable record of one key, every sample included.
nlohmann::json key_report_json(const problem::Problem& problem, const problem::KeyReport& report,
                               std::size_t warmup_runs);

}  // namespace spvtune::app
