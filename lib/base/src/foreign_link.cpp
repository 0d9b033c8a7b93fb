#include <cerrno>
#include <sys/stat.h>
#include <system_error>

#include <spvtune/base/foreign_link.hpp>

namespace spvtune::base {

bool is_symbolic_link(const std::filesystem::path& path) noexcept {
    struct stat info {};
    return ::lstat(path.c_str(), &info) == 0 && S_ISLNK(info.st_mode);
}

std::string foreign_link_message(const std::filesystem::path& path) {
    return path.string() +
           " is a symbolic link, which spvtune does not follow inside its cache directory";
}

void throw_foreign_link(const std::filesystem::path& path) {
    throw std::system_error(ELOOP, std::generic_category(), foreign_link_message(path));
}

}  // namespace spvtune::base
