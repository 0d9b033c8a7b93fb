#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spvtune::problem {

/// The environment variable with extra kernel directories, `:`-separated.
inline constexpr std::string_view kernel_path_variable = "SPVTUNE_KERNEL_PATH";

/// The kernels installed with spvtune under the prefix of `executable`: `share/spvtune/kernels`
/// (the install's data directory) in the nearest of the three directories above the one holding
/// `executable` that has it, or nothing. An installed `PREFIX/bin/spvtune` finds
/// `PREFIX/share/spvtune/kernels` wherever PREFIX was moved; the build tree keeps the same layout
/// (`build/<preset>/share/spvtune/kernels`) for the programs it builds.
std::optional<std::filesystem::path> kernel_dir_near(const std::filesystem::path& executable);

/// Where the kernels built with spvtune are for this process: kernel_dir_near() the running
/// program (`/proc/self/exe`), found once; empty when there are none. No directory of the build
/// is compiled in. An application installed elsewhere passes the package's `spvtune_KERNEL_DIR`
/// in LoadOptions::kernel_dirs, or names the directory in SPVTUNE_KERNEL_PATH.
std::filesystem::path builtin_kernel_dir();

/// The places a candidate's `spirv` value is looked for, in order: next to the problem file
/// (or the path itself when absolute), each of `kernel_dirs`, each directory of
/// SPVTUNE_KERNEL_PATH, then builtin_kernel_dir() when there is one.
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
