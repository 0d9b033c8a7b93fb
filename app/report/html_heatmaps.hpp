#pragma once

#include <string>

#include "json_view.hpp"

namespace spvtune::app {

/// The heatmaps of a tune report's key: one per family of `problem` whose grid has exactly two
/// parameters, all coloured on one scale from the key's fastest candidate, with a legend that
/// says so; empty when there is none (or the report predates `families`).
std::string key_heatmaps(const JsonView& problem, const JsonView& key);

}  // namespace spvtune::app
