#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <fcntl.h>
#include <system_error>
#include <unistd.h>

#include <spvtune/base/foreign_link.hpp>
#include <spvtune/base/posix_file.hpp>
#include <spvtune/base/regular_file.hpp>

namespace spvtune::base {
namespace {

using Step = FileReadError::Step;

[[noreturn]] void fail(Step step, int error, const std::string& what) {
    const std::error_code code(error, std::generic_category());
    throw FileReadError(step, code, what, code.message());
}

}  // namespace

std::optional<RegularFile> read_regular_file(const std::filesystem::path& path,
                                             std::uintmax_t largest, LinkPolicy links) {
    // O_NONBLOCK: opening a FIFO would otherwise wait for a writer before fstat could refuse it.
    const int no_follow = links == LinkPolicy::refuse ? O_NOFOLLOW : 0;
    Descriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | no_follow));
    if (fd.get() < 0) {
        const int error = errno;
        if (error == ENOENT) {
            return std::nullopt;
        }
        if (error == ELOOP && no_follow != 0 && is_symbolic_link(path)) {
            throw_foreign_link(path);
        }
        fail(Step::open, error, "cannot open " + path.string());
    }
    RegularFile file;
    if (::fstat(fd.get(), &file.info) != 0) {
        fail(Step::read, errno, "cannot stat " + path.string());
    }
    if (!S_ISREG(file.info.st_mode)) {
        const std::string kind = describe_file_type(file.info.st_mode);
        throw FileReadError(Step::kind, std::make_error_code(std::errc::invalid_argument),
                            "cannot read " + path.string() + " (" + kind + ", not a regular file)",
                            kind);
    }
    const auto too_large = [&] {
        const std::string detail = "more than " + std::to_string(largest) + " bytes";
        throw FileReadError(Step::size, std::make_error_code(std::errc::file_too_large),
                            "cannot read " + path.string() + ": " + detail, detail);
    };
    const auto size = static_cast<std::uintmax_t>(std::max<off_t>(file.info.st_size, 0));
    if (size > largest) {
        too_large();
    }
    // Regular files never block; reads below must not see EAGAIN from the flag either.
    ::fcntl(fd.get(), F_SETFL, ::fcntl(fd.get(), F_GETFL) & ~O_NONBLOCK);
    // One byte more than the file says it holds, so its end is seen without growing the text;
    // a file that grows since fstat (or says 0, as /proc's do) is read on in steps, up to the cap.
    const std::uintmax_t limit = largest < UINTMAX_MAX ? largest + 1 : largest;
    file.text.resize(static_cast<std::size_t>(std::min(size + 1, limit)));
    std::size_t done = 0;
    for (;;) {
        if (done == file.text.size()) {
            if (done > largest) {
                too_large();
            }
            const std::uintmax_t step = 65536;
            file.text.resize(static_cast<std::size_t>(std::min(done + step, limit)));
        }
        const ssize_t got = ::read(fd.get(), file.text.data() + done, file.text.size() - done);
        if (got < 0) {
            if (errno == EINTR) {
                continue;
            }
            fail(Step::read, errno, "cannot read " + path.string());
        }
        if (got == 0) {
            break;
        }
        done += static_cast<std::size_t>(got);
    }
    if (done > largest) {
        too_large();
    }
    file.text.resize(done);
    return file;
}

}  // namespace spvtune::base
