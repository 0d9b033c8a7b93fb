#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <unistd.h>
#include <utility>

// POSIX file plumbing that the cache file and the files a user names share: a descriptor that
// always closes, errors that name the path, and replacing a file atomically.
namespace spvtune::base {

/// A file descriptor closed on scope exit, so every error path releases it.
class Descriptor {
  public:
    explicit Descriptor(int fd) noexcept : fd_(fd) {}
    ~Descriptor() {
        if (fd_ >= 0) {
            ::close(fd_);
        }
    }
    Descriptor(const Descriptor&) = delete;
    Descriptor& operator=(const Descriptor&) = delete;
    int get() const noexcept { return fd_; }
    int release() noexcept { return std::exchange(fd_, -1); }

  private:
    int fd_;
};

/// What a file that is not a regular one is, for messages: "a directory", "a FIFO", "a device".
std::string describe_file_type(mode_t mode);

/// Throws std::system_error for `error` (an errno value): "<action> <path>: <reason>".
[[noreturn]] void throw_errno(int error, std::string_view action,
                              const std::filesystem::path& path);

/// Writes all of `content` to `fd`, retrying interrupted and partial writes.
void write_all(int fd, std::string_view content, const std::filesystem::path& path);

/// The names of `target`'s temporaries begin with this: "<file name>.tmp-".
std::string temporary_prefix(const std::filesystem::path& target);

/// Replaces the regular file `target` (or creates it) with `content` so that a reader sees the
/// old file or the new one, never half: a temporary "<file name>.tmp-<pid>-<n>" in the same
/// directory, renamed over it. The new file gets `mode` (none: 0666 less the umask). `durable`
/// also flushes the file and the directory entry, so a crash at any moment leaves one of the
/// two. Throws std::system_error naming the path; the temporary never outlives an error.
void replace_file_atomically(const std::filesystem::path& target, std::string_view content,
                             std::optional<mode_t> mode, bool durable);

}  // namespace spvtune::base
