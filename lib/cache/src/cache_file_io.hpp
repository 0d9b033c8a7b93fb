#pragma once

#include <ctime>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>

#include <spvtune/base/regular_file.hpp>

// POSIX file plumbing behind the cache file: consistent reads, atomic replacement, the advisory
// lock and moving a bad file aside. Errors are std::system_error naming the path.
namespace spvtune::cache::cache_io {

/// What identifies one version of a file: an atomic rename always changes the inode, so equal
/// stamps mean the bytes were not replaced.
struct FileStamp {
    dev_t device = 0;
    ino_t inode = 0;
    off_t size = 0;
    std::timespec modified{};

    friend bool operator==(const FileStamp& a, const FileStamp& b) noexcept {
        return a.device == b.device && a.inode == b.inode && a.size == b.size &&
               a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec;
    }
};

struct FileContents {
    std::string text;
    FileStamp stamp;  ///< of the very file descriptor the text was read from
};

/// Whether a read follows a symbolic link. The cache file's may be (reading harms nothing, and
/// every write replaces the link itself); a journal's may not, since a link there would hand
/// its target's bytes to the journal writer (docs/cache-format.md).
using Links = base::LinkPolicy;

/// The file's bytes, or nothing when it does not exist. With Links::refuse a symbolic link is
/// an error (std::system_error, ELOOP) naming it.
std::optional<FileContents> read_file(const std::filesystem::path& file,
                                      Links links = Links::follow);

/// The file's stamp, or nothing when it does not exist.
std::optional<FileStamp> stamp_of(const std::filesystem::path& file);

/// Replaces `target` with `content` so that a crash at any moment leaves either the old or the
/// new file: write a temporary in the same directory, fsync it, rename it over the target,
/// fsync the directory. A symbolic link at `target` is replaced, never its target. Callers hold
/// the target's FileLock.
void write_file_atomically(const std::filesystem::path& target, std::string_view content);

/// Removes temporaries of `target` left by writers that were killed mid-write. Only safe while
/// holding the target's FileLock, since every writer holds it while its temporary exists.
void remove_stale_temporaries(const std::filesystem::path& target);

/// Moves `file` to "<stem>.<reason>-<UTC timestamp>.json" in the same directory (adding a
/// counter if that exists) and returns the new path. Callers hold the file's FileLock.
std::filesystem::path move_aside(const std::filesystem::path& file, std::string_view reason);

/// Moves `file` to "<file name>.<reason>-<UTC timestamp>" (a journal, which is not JSON),
/// as move_aside does.
std::filesystem::path move_aside_as_is(const std::filesystem::path& file, std::string_view reason);

/// Exclusive advisory lock (flock) on the sidecar "<file>.lock", held for the object's lifetime.
/// A symbolic link there is an error (std::system_error) naming it, never followed.
/// flock is per open file description, so it also excludes other stores in the same process.
class FileLock {
  public:
    explicit FileLock(const std::filesystem::path& file);
    ~FileLock();
    FileLock(const FileLock&) = delete;
    FileLock& operator=(const FileLock&) = delete;

  private:
    int fd_ = -1;
};

}  // namespace spvtune::cache::cache_io
