#include "cache_file_io.hpp"

#include <cerrno>
#include <cstdint>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>
#include <utility>

#include <spvtune/base/foreign_link.hpp>
#include <spvtune/base/posix_file.hpp>
#include <spvtune/base/regular_file.hpp>

namespace spvtune::cache::cache_io {
namespace {

namespace fs = std::filesystem;
using base::Descriptor;
using base::temporary_prefix;
using base::throw_errno;

FileStamp stamp_from(const struct stat& info) {
    return FileStamp{info.st_dev, info.st_ino, info.st_size, info.st_mtim};
}

fs::path directory_of(const fs::path& file) {
    return file.has_parent_path() ? file.parent_path() : fs::path(".");
}

std::string utc_timestamp() {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    ::gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y%m%dT%H%M%SZ", &utc);
    return text;
}

}  // namespace

std::optional<FileContents> read_file(const fs::path& file, Links links) {
    // No cap of its own: a cache file is as large as its entries, and only a regular one is read.
    auto read = base::read_regular_file(file, UINTMAX_MAX, links);
    if (!read) {
        return std::nullopt;
    }
    return FileContents{std::move(read->text), stamp_from(read->info)};
}

std::optional<FileStamp> stamp_of(const fs::path& file) {
    struct stat info {};
    if (::stat(file.c_str(), &info) != 0) {
        if (errno == ENOENT || errno == ENOTDIR) {
            return std::nullopt;
        }
        throw_errno(errno, "cannot stat", file);
    }
    return stamp_from(info);
}

void write_file_atomically(const fs::path& target, std::string_view content) {
    // The rename replaces a symbolic link at `target` itself, never the file it points to: a
    // link inside the cache directory is foreign (docs/cache-format.md).
    base::replace_file_atomically(target, content, std::nullopt, true);
}

void remove_stale_temporaries(const fs::path& target) {
    const std::string prefix = temporary_prefix(target);
    std::error_code error;
    for (fs::directory_iterator it(directory_of(target), error), end; !error && it != end;
         it.increment(error)) {
        if (it->path().filename().string().starts_with(prefix)) {
            std::error_code ignored;
            fs::remove(it->path(), ignored);
        }
    }
}

namespace {

// Renames `file` to "<stem>-<counter><extension>" beside it, the counter only when that exists.
fs::path rename_aside(const fs::path& file, const std::string& stem, std::string_view extension) {
    fs::path backup = directory_of(file) / (stem + std::string(extension));
    for (int n = 1; fs::exists(fs::symlink_status(backup)); ++n) {
        backup = directory_of(file) / (stem + "-" + std::to_string(n) + std::string(extension));
    }
    if (::rename(file.c_str(), backup.c_str()) != 0) {
        throw_errno(errno, "cannot move aside", file);
    }
    return backup;
}

}  // namespace

fs::path move_aside(const fs::path& file, std::string_view reason) {
    return rename_aside(
        file, file.stem().string() + "." + std::string(reason) + "-" + utc_timestamp(), ".json");
}

fs::path move_aside_as_is(const fs::path& file, std::string_view reason) {
    return rename_aside(
        file, file.filename().string() + "." + std::string(reason) + "-" + utc_timestamp(), "");
}

FileLock::FileLock(const fs::path& file) {
    const fs::path lock_path = fs::path(file) += ".lock";
    // O_NOFOLLOW: a dangling link here would otherwise create the file it names.
    Descriptor fd(::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666));
    if (fd.get() < 0) {
        if (errno == ELOOP && base::is_symbolic_link(lock_path)) {
            base::throw_foreign_link(lock_path);
        }
        throw_errno(errno, "cannot open lock file", lock_path);
    }
    while (::flock(fd.get(), LOCK_EX) != 0) {
        if (errno != EINTR) {
            throw_errno(errno, "cannot lock", lock_path);
        }
    }
    fd_ = fd.release();
}

FileLock::~FileLock() {
    // Closing the descriptor releases the flock.
    ::close(fd_);
}

}  // namespace spvtune::cache::cache_io
