#include <cerrno>
#include <cstdlib>
#include <sys/stat.h>
#include <system_error>

#include <spvtune/base/posix_file.hpp>
#include <spvtune/problem/kernel_search.hpp>

#ifndef SPVTUNE_PREFIX_KERNEL_DIR
#error \
    "SPVTUNE_PREFIX_KERNEL_DIR must name the installed kernels' directory, relative to the prefix"
#endif

namespace spvtune::problem {

std::optional<std::filesystem::path> kernel_dir_near(const std::filesystem::path& executable) {
    // PREFIX/bin/program is one level below its prefix; a build tree's programs are one to three
    // (app/, tests/<suite>/, lib/run/examples/). No further: a directory that happens to hold
    // share/spvtune/kernels far above a program is no prefix of it.
    constexpr int levels = 3;
    std::filesystem::path prefix = executable.parent_path();
    for (int level = 0; level < levels && prefix.has_relative_path(); ++level) {
        prefix = prefix.parent_path();
        const std::filesystem::path kernels = prefix / SPVTUNE_PREFIX_KERNEL_DIR;
        std::error_code error;
        if (std::filesystem::is_directory(kernels, error)) {
            return kernels;
        }
    }
    return std::nullopt;
}

std::filesystem::path builtin_kernel_dir() {
    static const std::filesystem::path dir = [] {
        std::error_code error;
        const std::filesystem::path program =
            std::filesystem::read_symlink("/proc/self/exe", error);
        return error ? std::filesystem::path()
                     : kernel_dir_near(program).value_or(std::filesystem::path());
    }();
    return dir;
}

std::vector<std::filesystem::path> kernel_candidates(
    std::string_view spirv, const std::filesystem::path& problem_file,
    const std::vector<std::filesystem::path>& kernel_dirs) {
    const std::filesystem::path name(spirv);
    if (name.is_absolute()) {
        return {name};
    }
    std::vector<std::filesystem::path> places{problem_file.parent_path() / name};
    for (const auto& dir : kernel_dirs) {
        places.push_back(dir / name);
    }
    if (const char* path = std::getenv(std::string(kernel_path_variable).c_str())) {
        std::string_view rest(path);
        while (!rest.empty()) {
            const auto colon = rest.find(':');
            const std::string_view dir = rest.substr(0, colon);
            if (!dir.empty()) {
                places.push_back(std::filesystem::path(dir) / name);
            }
            rest = colon == std::string_view::npos ? std::string_view{} : rest.substr(colon + 1);
        }
    }
    if (const std::filesystem::path builtin = builtin_kernel_dir(); !builtin.empty()) {
        places.push_back(builtin / name);
    }
    return places;
}

std::string kernel_places(std::string_view spirv, const std::filesystem::path& problem_file,
                          const std::vector<std::filesystem::path>& kernel_dirs) {
    std::string places;
    for (const auto& place : kernel_candidates(spirv, problem_file, kernel_dirs)) {
        places += "\n    " + place.string();
    }
    return places;
}

std::optional<std::filesystem::path> find_kernel(
    std::string_view spirv, const std::filesystem::path& problem_file,
    const std::vector<std::filesystem::path>& kernel_dirs) {
    for (const auto& place : kernel_candidates(spirv, problem_file, kernel_dirs)) {
        std::error_code error;
        if (std::filesystem::is_regular_file(place, error)) {
            return place;
        }
    }
    return std::nullopt;
}

std::string kernel_not_found(std::string_view kind, std::string_view name,
                             const std::filesystem::path& problem_file,
                             const std::vector<std::filesystem::path>& kernel_dirs) {
    const std::string file = std::string(kind) + " file '" + std::string(name) + "'";
    for (const auto& place : kernel_candidates(name, problem_file, kernel_dirs)) {
        struct stat info {};
        if (::stat(place.c_str(), &info) == 0) {
            return "cannot use " + file + ": '" + place.string() + "' is " +
                   base::describe_file_type(info.st_mode) + ", not a regular file";
        }
        if (errno != ENOENT && errno != ENOTDIR) {
            return "cannot use " + file + ": '" + place.string() +
                   "' cannot be read: " + std::generic_category().message(errno);
        }
    }
    return "cannot find " + file + "; looked in:" + kernel_places(name, problem_file, kernel_dirs);
}

}  // namespace spvtune::problem
