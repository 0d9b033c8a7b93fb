#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <sys/stat.h>
#include <system_error>
#include <utility>

// Reading a file whose name spvtune did not choose (a problem file, a cache file, a GLSL cache
// entry and the includes it records): a name may be a FIFO, whose open and read wait for a
// writer forever, a device such as /dev/zero, which never ends, or a file far larger than
// anything spvtune writes. Only regular files are read, never blocking, and never past a cap.
namespace spvtune::base {

/// Whether a symbolic link at the path itself is followed. Inside the cache directory a link is
/// foreign (foreign_link.hpp) and refused.
enum class LinkPolicy { follow, refuse };

/// Why read_regular_file failed: the step, and what went wrong there, apart from the path, so a
/// caller can say it its own way ("cannot read the problem file: Input/output error"). what()
/// names the step and the path.
class FileReadError : public std::system_error {
  public:
    enum class Step {
        open,  ///< open(2) failed: detail() is errno's text
        kind,  ///< not a regular file: detail() is "a FIFO", "a directory", "a device", ...
        size,  ///< larger than allowed: detail() is "more than N bytes"
        read,  ///< fstat(2) or read(2) failed: detail() is errno's text
    };

    FileReadError(Step step, std::error_code code, const std::string& what, std::string detail)
        : std::system_error(code, what), step_(step), detail_(std::move(detail)) {}

    Step step() const noexcept { return step_; }
    const std::string& detail() const noexcept { return detail_; }

  private:
    Step step_;
    std::string detail_;
};

struct RegularFile {
    std::string text;
    struct stat info {};  ///< fstat of the very descriptor the text was read from
};

/// `path`'s bytes when it is a regular file of at most `largest` bytes; nothing when it does not
/// exist. It is opened with O_NONBLOCK (so a FIFO never blocks the open) and, with
/// LinkPolicy::refuse, O_NOFOLLOW, then read only if fstat says it is a regular file. Errors
/// are FileReadError, whose what() names the operation and the path: "cannot open P: <reason>",
/// "cannot read P (a FIFO, not a regular file): Invalid argument", "cannot read P: more than N
/// bytes: File too large", "cannot read P: Input/output error"; a refused link throws
/// throw_foreign_link(path) (a std::system_error, ELOOP).
std::optional<RegularFile> read_regular_file(const std::filesystem::path& path,
                                             std::uintmax_t largest,
                                             LinkPolicy links = LinkPolicy::follow);

}  // namespace spvtune::base
