#include "standard_output.hpp"

#include <array>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <streambuf>
#include <unistd.h>

#include "command.hpp"

namespace spvtune::app {
namespace {

class StandardOutputBuffer final : public std::streambuf {
  public:
    StandardOutputBuffer() : line_buffered_(::isatty(STDOUT_FILENO) == 1) { reset(); }

    /// The errno of the first write that failed; 0 while every write succeeded.
    int error() const { return error_; }

  protected:
    int_type overflow(int_type c) override {
        if (!drain()) {
            return traits_type::eof();
        }
        if (!traits_type::eq_int_type(c, traits_type::eof())) {
            *pptr() = traits_type::to_char_type(c);
            pbump(1);
            // A person at a terminal sees each line as it is printed, as stdio would show it.
            if (line_buffered_ && traits_type::to_char_type(c) == '\n' && !drain()) {
                return traits_type::eof();
            }
        }
        return traits_type::not_eof(c);
    }

    std::streamsize xsputn(const char* text, std::streamsize count) override {
        const std::streamsize written = std::streambuf::xsputn(text, count);
        if (line_buffered_ && std::memchr(text, '\n', static_cast<std::size_t>(written)) &&
            !drain()) {
            return 0;
        }
        return written;
    }

    int sync() override { return drain() ? 0 : -1; }

  private:
    std::array<char, 1 << 16> buffer_{};
    bool line_buffered_;
    int error_ = 0;

    void reset() { setp(buffer_.data(), buffer_.data() + buffer_.size()); }

    /// Writes out the buffer; after a failure, what follows is dropped as stdio drops it.
    bool drain() {
        const char* data = pbase();
        auto left = static_cast<std::size_t>(pptr() - pbase());
        while (left > 0 && error_ == 0) {
            const ssize_t written = ::write(STDOUT_FILENO, data, left);
            if (written < 0) {
                if (errno != EINTR) {
                    error_ = errno;
                }
                continue;
            }
            data += written;
            left -= static_cast<std::size_t>(written);
        }
        reset();
        return error_ == 0;
    }
};

StandardOutputBuffer* captured = nullptr;

}  // namespace

void capture_standard_output() {
    // Never destroyed: static destructors may still write to std::cout.
    captured = new StandardOutputBuffer;
    std::cout.rdbuf(captured);
}

int finish_standard_output(int exit_code) {
    std::cout.flush();
    const int reason = captured != nullptr ? captured->error() : 0;
    if (reason == 0 && std::cout.good()) {
        return exit_code;
    }
    std::cerr << "spvtune: error: standard output: "
              << (reason != 0 ? std::strerror(reason) : "write error") << '\n';
    return exit_code == exit_success ? exit_failure : exit_code;
}

}  // namespace spvtune::app
