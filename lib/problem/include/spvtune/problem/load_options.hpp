#pragma once

#include <filesystem>
#include <optional>
#include <vector>

#include <spvtune/problem/problem.hpp>

namespace spvtune::problem {

/// How a command loads problems: `kernel_dirs` searched first for `spirv` files, and compiled
/// GLSL kept in the `glsl` folder of `cache_directory` (none: compiled on every load).
LoadOptions load_options_in(std::vector<std::filesystem::path> kernel_dirs,
                            const std::optional<std::filesystem::path>& cache_directory);

/// The same in the cache directory `explicit_directory` names, else the environment's
/// (cache::resolve_cache_directory); where there is none at all (no HOME), GLSL is compiled on
/// every load, which is slower but still correct. For commands that load problems and run
/// nothing: `check` without a device, `cache verify` and `cache prune`.
LoadOptions load_options_for(std::vector<std::filesystem::path> kernel_dirs,
                             const std::filesystem::path& explicit_directory = {});

}  // namespace spvtune::problem
