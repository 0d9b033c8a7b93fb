#include <atomic>
#include <cerrno>
#include <cstdio>
#include <fcntl.h>
#include <iostream>
#include <string>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>
#include <utility>

#include <spvtune/base/output_file.hpp>

namespace spvtune::base {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void throw_errno(int error, const std::string& what, const fs::path& path) {
    throw std::system_error(error, std::generic_category(), what + " " + path.string());
}

/// Closes on every path out, so an error never leaks the descriptor.
class Descriptor {
  public:
    explicit Descriptor(int fd) : fd_(fd) {}
    ~Descriptor() {
        if (fd_ >= 0) {
            ::close(fd_);
        }
    }
    Descriptor(const Descriptor&) = delete;
    Descriptor& operator=(const Descriptor&) = delete;
    int get() const { return fd_; }
    int release() { return std::exchange(fd_, -1); }

  private:
    int fd_;
};

void write_all(int fd, std::string_view content, const fs::path& path) {
    while (!content.empty()) {
        const ssize_t written = ::write(fd, content.data(), content.size());
        if (written < 0) {
            if (errno == EINTR) {
                continue;
            }
            throw_errno(errno, "cannot write", path);
        }
        content.remove_prefix(static_cast<std::size_t>(written));
    }
}

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

void replace_atomically(const fs::path& target, std::string_view content, mode_t mode) {
    static std::atomic<unsigned> counter{0};
    const fs::path directory = target.has_parent_path() ? target.parent_path() : fs::path(".");
    const fs::path temporary =
        directory / ("." + target.filename().string() + ".tmp-" + std::to_string(::getpid()) + "-" +
                     std::to_string(counter.fetch_add(1)));
    Descriptor fd(::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode));
    if (fd.get() < 0) {
        throw_errno(errno, "cannot create", temporary);
    }
    try {
        // The umask applied to the mode at creation; an existing file's mode is kept exactly.
        if (::fchmod(fd.get(), mode) != 0) {
            throw_errno(errno, "cannot set the mode of", temporary);
        }
        write_all(fd.get(), content, temporary);
        if (::close(fd.release()) != 0) {
            throw_errno(errno, "cannot close", temporary);
        }
        if (::rename(temporary.c_str(), target.c_str()) != 0) {
            throw_errno(errno, "cannot replace", target);
        }
    } catch (...) {
        ::unlink(temporary.c_str());
        throw;
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
        replace_atomically(target, content, 0644);
        return;
    }
    if (S_ISDIR(info.st_mode)) {
        throw_errno(EISDIR, "cannot write", target);
    }
    if (!S_ISREG(info.st_mode)) {
        write_directly(target, content);
        return;
    }
    replace_atomically(target, content, info.st_mode & 07777);
}

}  // namespace spvtune::base
