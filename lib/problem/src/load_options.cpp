#include <stdexcept>
#include <utility>

#include <spvtune/cache/cache_location.hpp>
#include <spvtune/problem/load_options.hpp>

namespace spvtune::problem {

LoadOptions load_options_in(std::vector<std::filesystem::path> kernel_dirs,
                            const std::optional<std::filesystem::path>& cache_directory) {
    LoadOptions options;
    options.kernel_dirs = std::move(kernel_dirs);
    if (cache_directory) {
        options.glsl_cache_dir = *cache_directory / "glsl";
    }
    return options;
}

LoadOptions load_options_for(std::vector<std::filesystem::path> kernel_dirs,
                             const std::filesystem::path& explicit_directory) {
    std::optional<std::filesystem::path> directory;
    try {
        directory = cache::resolve_cache_directory(explicit_directory);
    } catch (const std::runtime_error&) {
        // No directory at all: nothing to keep compiled GLSL in.
    }
    return load_options_in(std::move(kernel_dirs), directory);
}

}  // namespace spvtune::problem
