#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spvtune::problem {

/// The environment variable with extra kernel directories, `:`-separated.
inline constexpr std::string_view kernel_path_variable = "SPVTUNE_KERNEL_PATH";

/// Where the kernels built with spvtune are (the build's kernel directory).
std::filesystem::path builtin_kernel_dir();

/// The places a candidate's `spirv` value is looked for, in order: next to the problem file
/// (or the path itself when absolute), each of `kernel_dirs`, each directory of
/// SPVTUNE_KERNEL_PATH, then builtin_kernel_dir().
std::vector<std::filesystem::path> kernel_candidates(
    std::string_view spirv, const std::filesystem::path& problem_file,
    const std::vector<std::filesystem::path>& kernel_dirs);

/// kernel_candidates() for a "looked in:" message: each on its own indented line.
std::string kernel_places(std::string_view spirv, const std::filesystem::path& problem_file,
                          const std::vector<std::filesystem::path>& kernel_dirs);

/// The first of kernel_candidates() that is a regular file, or nothing.
std::optional<std::filesystem::path> find_kernel(
    std::string_view spirv, const std::filesystem::path& problem_file,
    const std::vector<std::filesystem::path>& kernel_dirs);

/// Why no `kind` file ("SPIR-V", "GLSL") named `name` was found: the first place that holds
/// something other than a regular file (a directory, a FIFO, a device, a symbolic-link loop),
/// which a plain "cannot find" would hide, else every place looked at.
std::string kernel_not_found(std::string_view kind, std::string_view name,
                             const std::filesystem::path& problem_file,
                             const std::vector<std::filesystem::path>& kernel_dirs);

}  // namespace spvtune::problem
