#include <atomic>
#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <system_error>

#include <spvtune/base/posix_file.hpp>

namespace spvtune::base {

namespace fs = std::filesystem;

void throw_errno(int error, std::string_view action, const fs::path& path) {
    throw std::system_error(error, std::generic_category(),
                            std::string(action) + " " + path.string());
}

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

std::string temporary_prefix(const fs::path& target) {
    return target.filename().string() + ".tmp-";
}

void replace_file_atomically(const fs::path& target, std::string_view content,
                             std::optional<mode_t> mode, bool durable) {
    static std::atomic<unsigned> counter{0};
    const fs::path directory = target.has_parent_path() ? target.parent_path() : fs::path(".");
    const fs::path temporary = directory / (temporary_prefix(target) + std::to_string(::getpid()) +
                                            "-" + std::to_string(counter.fetch_add(1)));
    Descriptor fd(::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666));
    if (fd.get() < 0) {
        throw_errno(errno, "cannot create", temporary);
    }
    try {
        // The umask applied at creation; a mode given (an existing file's) is kept exactly.
        if (mode && ::fchmod(fd.get(), *mode) != 0) {
            throw_errno(errno, "cannot set the mode of", temporary);
        }
        write_all(fd.get(), content, temporary);
        if (durable && ::fsync(fd.get()) != 0) {
            throw_errno(errno, "cannot flush", temporary);
        }
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
    if (durable) {
        // The rename is only durable once the directory entry is; a failure here leaves a
        // complete file either way, so it is not worth failing the write over.
        Descriptor dir(::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
        if (dir.get() >= 0) {
            ::fsync(dir.get());
        }
    }
}

std::string describe_file_type(mode_t mode) {
    if (S_ISDIR(mode)) {
        return "a directory";
    }
    if (S_ISFIFO(mode)) {
        return "a FIFO";
    }
    if (S_ISCHR(mode) || S_ISBLK(mode)) {
        return "a device";
    }
    if (S_ISSOCK(mode)) {
        return "a socket";
    }
    return "a special file";
}

}  // namespace spvtune::base
