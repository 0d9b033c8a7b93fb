#pragma once

#include <string>

#include "../key_filter.hpp"
#include "compare_run.hpp"

namespace spvtune::app {

/// `spvtune compare --results OLD NEW`: the samples two saved `tune --json` reports hold, per
/// problem, key and candidate name found in both, judged as a measured comparison would be
/// (OLD's samples are the baseline). No device is needed. Warns when the two were measured on
/// different hardware, and always that saved results cannot cancel drift between the runs.
/// Throws std::runtime_error naming the file and the JSON pointer of what is malformed.
CompareRun compare_saved_results(const std::string& old_file, const std::string& new_file,
                                 const KeyFilter& filter, const tune::ComparisonSettings& settings);

}  // namespace spvtune::app
