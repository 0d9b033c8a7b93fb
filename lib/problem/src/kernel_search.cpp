#include <cerrno>
#include <cstdlib>
#include <sys/stat.h>
#include <system_error>

#include <spvtune/base/posix_file.hpp>
#include <spvtune/problem/kernel_search.hpp>

#ifndef SPVTUNE_KERNEL_DIR
#error "SPVTUNE_KERNEL_DIR must name the directory of the kernels built with spvtune"
#endif

namespace spvtune::problem {

std::filesystem::path builtin_kernel_dir() {
    return SPVTUNE_KERNEL_DIR;
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
    places.push_back(builtin_kernel_dir() / name);
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
