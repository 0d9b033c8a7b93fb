#include "cache_layouts.hpp"

#include <iostream>
#include <utility>

#include <spvtune/problem/load_options.hpp>

#include "problem_loading.hpp"

namespace spvtune::app {

std::optional<std::vector<problem::ProblemCacheLayout>> load_cache_layouts(
    const std::vector<std::string>& problem_files, const std::vector<std::string>& kernel_dirs,
    const std::string& cache_dir) {
    const auto level = tune::autotune_level_from_env();
    if (!level) {
        std::cerr << "spvtune: error: " << level.error() << '\n';
        return std::nullopt;
    }
    // Problems are only loaded here: the running layer (devices, workers) has no part in it.
    auto problems = load_problem_files(
        problem_files,
        problem::load_options_for({kernel_dirs.begin(), kernel_dirs.end()}, cache_dir));
    if (!problems) {
        return std::nullopt;
    }
    std::vector<problem::ProblemCacheLayout> layouts;
    for (const problem::Problem& problem : *problems) {
        layouts.push_back(problem::problem_cache_layout(problem, level.value()));
    }
    return layouts;
}

}  // namespace spvtune::app
