#include "gzip_input.hpp"

#include <algorithm>
#include <stdexcept>
#include <zlib.h>

namespace spvtune::app {
namespace {

/// zlib's windowBits for gzip data (a header and a CRC) rather than a bare zlib stream.
constexpr int gzip_window_bits = 16 + MAX_WBITS;
/// Output is grown by at most this much at a time, so a bomb is stopped near the limit.
constexpr std::size_t output_step = std::size_t{1} << 20;

std::string mib(std::size_t bytes) {
    return bytes % (std::size_t{1} << 20) == 0 ? std::to_string(bytes >> 20) + " MiB"
                                               : std::to_string(bytes) + " bytes";
}

/// One inflate stream, ended on every path out.
class Inflater {
  public:
    Inflater() {
        if (inflateInit2(&stream_, gzip_window_bits) != Z_OK) {
            throw std::runtime_error("cannot start decompressing the gzip data: out of memory");
        }
    }
    ~Inflater() { inflateEnd(&stream_); }
    Inflater(const Inflater&) = delete;
    Inflater& operator=(const Inflater&) = delete;

    z_stream& stream() { return stream_; }

  private:
    z_stream stream_{};
};

}  // namespace

bool is_gzip(std::string_view bytes) {
    return bytes.size() >= 3 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
           static_cast<unsigned char>(bytes[1]) == 0x8b && bytes[2] == 8;
}

std::string gunzip(std::string_view compressed, std::size_t max_bytes) {
    Inflater inflater;
    z_stream& stream = inflater.stream();
    // zlib takes no const input; it does not write through next_in.
    auto* next = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
    std::size_t left = compressed.size();
    std::string out;
    // Deflate expands at most 1032-fold, so this bounds the output: the buffer is never copied
    // to grow, and a bomb costs the cap, not twice it.
    constexpr std::size_t most_deflate_expansion = 1032;
    out.reserve(std::min(max_bytes, compressed.size() * most_deflate_expansion) + 1);
    for (;;) {
        // avail_in is 32 bits: feed a larger input in pieces.
        const auto piece = static_cast<uInt>(std::min<std::size_t>(left, 1U << 30));
        stream.next_in = next;
        stream.avail_in = piece;
        // One byte past the limit tells "more than" from "exactly"; out never holds more.
        const std::size_t before = out.size();
        const std::size_t room =
            max_bytes - before < output_step ? max_bytes - before + 1 : output_step;
        out.resize(before + room);
        stream.next_out = reinterpret_cast<Bytef*>(out.data() + before);
        stream.avail_out = static_cast<uInt>(room);
        const int status = inflate(&stream, Z_NO_FLUSH);
        out.resize(before + (room - stream.avail_out));
        const std::size_t used = piece - stream.avail_in;
        next += used;
        left -= used;
        if (out.size() > max_bytes) {
            throw std::runtime_error("the gzip data decompresses to more than " + mib(max_bytes));
        }
        if (status == Z_STREAM_END) {
            if (left == 0) {
                return out;
            }
            // `gzip -d` reads concatenated members as one file, and passes over zero bytes after
            // the last (a tape's or a block device's padding); anything else is not data.
            const std::string_view rest(reinterpret_cast<const char*>(next), left);
            if (rest.find_first_not_of('\0') == std::string_view::npos) {
                return out;
            }
            if (!is_gzip(rest)) {
                throw std::runtime_error(std::to_string(left) +
                                         " bytes after the end of the gzip data " +
                                         "that are not gzip data");
            }
            inflateReset(&stream);
            continue;
        }
        if (status == Z_DATA_ERROR) {
            throw std::runtime_error(std::string("the gzip data is damaged (") +
                                     (stream.msg != nullptr ? stream.msg : "invalid data") + ")");
        }
        if (status == Z_MEM_ERROR) {
            throw std::runtime_error("out of memory decompressing the gzip data");
        }
        if (status == Z_BUF_ERROR && left == 0 && stream.avail_out > 0) {
            throw std::runtime_error("the gzip data ends early (cut off?)");
        }
        if (status != Z_OK && status != Z_BUF_ERROR) {
            throw std::runtime_error("cannot decompress the gzip data (zlib status " +
                                     std::to_string(status) + ")");
        }
    }
}

}  // namespace spvtune::app
