#include <cerrno>
#include <fcntl.h>
#include <iostream>
#include <string>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

#include <spvtune/base/output_file.hpp>
#include <spvtune/base/posix_file.hpp>

namespace spvtune::base {
namespace {

namespace fs = std::filesystem;

void write_directly(const fs::path& path, std::string_view content) {
    Descriptor fd(::open(path.c_str(), O_WRONLY | O_CLOEXEC));
    if (fd.get() < 0) {
        throw_errno(errno, "cannot open", path);
    }
    write_all(fd.get(), content, path);
    if (::close(fd.release()) != 0) {
        throw_errno(errno, "cannot close", path);
    }
}

}  // namespace

fs::path output_target(const fs::path& path) {
    // Linux gives up after 40 links (ELOOP); so does this.
    constexpr int max_links = 40;
    fs::path current = path;
    for (int hop = 0; hop <= max_links; ++hop) {
        struct stat info {};
        if (::lstat(current.c_str(), &info) != 0 || !S_ISLNK(info.st_mode)) {
            return current;
        }
        std::error_code error;
        const fs::path link = fs::read_symlink(current, error);
        if (error) {
            throw std::system_error(error, "cannot read the link " + current.string());
        }
        current = link.is_absolute() ? link : current.parent_path() / link;
    }
    throw_errno(ELOOP, "cannot follow", path);
}

void write_output_file(const fs::path& path, std::string_view content) {
    if (path == "-") {
        std::cout << content;
        std::cout.flush();
        if (!std::cout) {
            throw std::system_error(EIO, std::generic_category(),
                                    "cannot write to standard output");
        }
        return;
    }
    const fs::path target = output_target(path);
    struct stat info {};
    if (::stat(target.c_str(), &info) != 0) {
        if (errno != ENOENT) {
            throw_errno(errno, "cannot inspect", target);
        }
        replace_file_atomically(target, content, std::nullopt, false);
        return;
    }
    if (S_ISDIR(info.st_mode)) {
        throw_errno(EISDIR, "cannot write", target);
    }
    if (!S_ISREG(info.st_mode)) {
        write_directly(target, content);
        return;
    }
    replace_file_atomically(target, content, info.st_mode & 07777, false);
}

}  // namespace spvtune::base
