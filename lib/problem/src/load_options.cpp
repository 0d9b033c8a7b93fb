#include <stdexcept>
#include <utility>

#include <spvtune/base/foreign_link.hpp>
#include <spvtune/cache/cache_location.hpp>
#include <spvtune/cache/cache_warning.hpp>
#include <spvtune/problem/load_options.hpp>

namespace spvtune::problem {

LoadOptions load_options_in(std::vector<std::filesystem::path> kernel_dirs,
                            const std::optional<std::filesystem::path>& cache_directory) {
    LoadOptions options;
    options.kernel_dirs = std::move(kernel_dirs);
    if (cache_directory) {
        const std::filesystem::path glsl = *cache_directory / "glsl";
        // GlslCache would ignore it silently; the user should hear why nothing is kept.
        if (base::is_symbolic_link(glsl)) {
            cache::warn_to_stderr(base::foreign_link_message(glsl) + "; compiled GLSL is not kept");
        } else {
            options.glsl_cache_dir = glsl;
        }
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
