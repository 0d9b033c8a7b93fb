#pragma once

#include <optional>
#include <string>
#include <vector>

#include <spvtune/problem/problem_cache_layout.hpp>

namespace spvtune::app {

/// The cache layout of every problem file (bucketed at SPVTUNE_AUTOTUNE_LEVEL, as tune would),
/// or nothing when a file is invalid (its diagnostics are printed). Loads no device; compiled
/// GLSL is kept in the `glsl` folder of `cache_dir` (else of the environment's cache directory).
std::optional<std::vector<problem::ProblemCacheLayout>> load_cache_layouts(
    const std::vector<std::string>& problem_files, const std::vector<std::string>& kernel_dirs,
    const std::string& cache_dir);

}  // namespace spvtune::app
