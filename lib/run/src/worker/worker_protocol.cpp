#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits.h>  // IOV_MAX
#include <poll.h>
#include <stdexcept>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>
#include <utility>
#include <variant>

#include <spvtune/run/worker_protocol.hpp>
#include <spvtune/tune/tune_entry.hpp>

namespace spvtune::run::worker {
namespace {

constexpr std::array<std::byte, 4> magic{std::byte{'S'}, std::byte{'P'}, std::byte{'V'},
                                         std::byte{'W'}};
constexpr std::size_t prefix_bytes = magic.size() + 8;
/// Far above any buffer a problem checks, low enough that a garbled length is caught before an
/// allocation that would fail.
constexpr std::uint64_t max_payload = std::uint64_t{1} << 36;

void put(std::vector<std::byte>& out, std::uint64_t value, int bytes) {
    for (int i = 0; i < bytes; ++i) {
        out.push_back(static_cast<std::byte>((value >> (8 * i)) & 0xff));
    }
}

std::uint64_t get(std::span<const std::byte> in, int bytes) {
    std::uint64_t value = 0;
    for (int i = 0; i < bytes; ++i) {
        value |= std::to_integer<std::uint64_t>(in[static_cast<std::size_t>(i)]) << (8 * i);
    }
    return value;
}

tune::Unexpected<ReadError> garbled(std::string message) {
    return tune::make_unexpected(ReadError{ReadFailure::garbled, std::move(message)});
}

/// Reads a payload front to back, every length checked against what is left of it before any
/// is read or allocated, from wherever `fill` takes the next bytes: memory (decode) or the
/// socket itself (read_message), so that a blob is read once, straight into its own vector.
/// `fill` is a tune::Result<tune::Done, ReadError>(std::span<std::byte>) that fills the span,
/// and must outlive the reader.
template <class Fill>
class PayloadReader {
  public:
    PayloadReader(std::uint64_t length, Fill& fill) : left_(length), fill_(fill) {}

    /// The next `out.size()` bytes, into `out`.
    tune::Result<tune::Done, ReadError> read(std::span<std::byte> out, const char* what) {
        if (out.size() > left_) {
            return truncated(out.size(), what);
        }
        left_ -= out.size();
        return fill_(out);
    }

    /// An unsigned number of `bytes` bytes.
    tune::Result<std::uint64_t, ReadError> number(int bytes, const char* what) {
        std::array<std::byte, 8> raw{};
        auto read_ok = read(std::span(raw).first(static_cast<std::size_t>(bytes)), what);
        if (!read_ok) {
            return tune::make_unexpected(std::move(read_ok.error()));
        }
        return get(raw, bytes);
    }

    /// A part preceded by its length in `length_bytes` bytes.
    tune::Result<base::LargeBytes, ReadError> sized(int length_bytes, const char* what) {
        auto length = number(length_bytes, what);
        if (!length) {
            return tune::make_unexpected(std::move(length.error()));
        }
        if (length.value() > left_) {
            return truncated(length.value(), what);
        }
        base::LargeBytes part(static_cast<std::size_t>(length.value()));
        if (auto read_ok = read(part, what); !read_ok) {
            return tune::make_unexpected(std::move(read_ok.error()));
        }
        return part;
    }

    std::uint64_t left() const noexcept { return left_; }

  private:
    tune::Unexpected<ReadError> truncated(std::uint64_t count, const char* what) const {
        return garbled(std::string("truncated message: ") + what + " needs " +
                       std::to_string(count) + " bytes, " + std::to_string(left_) + " left");
    }

    std::uint64_t left_;
    Fill& fill_;
};

template <class Fill>
tune::Result<Message, ReadError> read_payload(PayloadReader<Fill>& reader) {
    auto header_text = reader.sized(4, "the header");
    if (!header_text) {
        return tune::make_unexpected(std::move(header_text.error()));
    }
    Message message;
    const auto* text = reinterpret_cast<const char*>(header_text.value().data());
    message.header = nlohmann::json::parse(text, text + header_text.value().size(), nullptr, false);
    if (!message.header.is_object()) {
        return garbled("garbled message: the header is not a JSON object");
    }
    auto blob_count = reader.number(4, "the blob count");
    if (!blob_count) {
        return tune::make_unexpected(std::move(blob_count.error()));
    }
    for (std::uint64_t i = 0; i < blob_count.value(); ++i) {
        auto blob = reader.sized(8, "a blob");
        if (!blob) {
            return tune::make_unexpected(std::move(blob.error()));
        }
        message.blobs.push_back(std::move(blob.value()));
    }
    if (reader.left() != 0) {
        return garbled("garbled message: " + std::to_string(reader.left()) +
                       " bytes after the last blob");
    }
    return message;
}

/// The payload length a frame prefix announces, or why the prefix is not one.
tune::Result<std::uint64_t> payload_length(std::span<const std::byte> prefix) {
    if (!std::equal(magic.begin(), magic.end(), prefix.begin())) {
        return tune::fail("garbled message: it does not start with the frame magic");
    }
    const std::uint64_t length = get(prefix.subspan(magic.size()), 8);
    if (length > max_payload) {
        return tune::fail("garbled message: a payload of " + std::to_string(length) + " bytes");
    }
    return length;
}

// The steady clock goes on while the process group is stopped (Ctrl-Z, then fg): a deadline on
// it alone would call a worker stopped with tune a hung one and kill it. So a wait is cut into
// slices, and a slice that ends later than it asked by more than stop_grace was a stop (or a
// process that got no CPU that long): the deadline moves on by the excess, as if measured on a
// clock that stops with the process.
constexpr std::chrono::milliseconds wait_slice{250};
constexpr std::chrono::milliseconds stop_grace{500};

/// Reads at least `at_least` bytes from `fd` into `out` (and at most all of it); returns how many
/// it read, or the error that stopped it early. `deadline` moves on by the time this process was
/// seen stopped.
tune::Result<std::size_t, ReadError> read_at_least(int fd, std::span<std::byte> out,
                                                   std::size_t at_least,
                                                   std::optional<Deadline>& deadline) {
    std::size_t done = 0;
    while (done < at_least) {
        int wait_ms = -1;
        if (deadline) {
            const auto left = std::chrono::ceil<std::chrono::milliseconds>(
                *deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0) {
                return tune::make_unexpected(ReadError{ReadFailure::timed_out, "no reply in time"});
            }
            wait_ms = static_cast<int>(std::min(left, wait_slice).count());
        }
        pollfd ready{fd, POLLIN, 0};
        const auto asleep = std::chrono::steady_clock::now();
        const int polled = ::poll(&ready, 1, wait_ms);
        if (deadline) {
            const auto overslept = std::chrono::steady_clock::now() - asleep -
                                   std::chrono::milliseconds(std::max(wait_ms, 0));
            if (overslept > stop_grace) {
                *deadline += std::chrono::duration_cast<Deadline::duration>(overslept);
            }
        }
        if (polled < 0 && errno == EINTR) {
            continue;
        }
        if (polled == 0) {
            continue;  // the deadline check above ends the wait
        }
        const ssize_t got = ::read(fd, out.data() + done, out.size() - done);
        if (got < 0 && (errno == EINTR || errno == EAGAIN)) {
            continue;
        }
        if (got <= 0) {
            return tune::make_unexpected(ReadError{
                ReadFailure::closed, got == 0 ? "the connection was closed"
                                              : std::string("read: ") + std::strerror(errno)});
        }
        done += static_cast<std::size_t>(got);
    }
    return done;
}

/// Fills `out` from `fd`, as read_at_least does.
tune::Result<tune::Done, ReadError> read_exactly(int fd, std::span<std::byte> out,
                                                 std::optional<Deadline>& deadline) {
    auto read = read_at_least(fd, out, out.size(), deadline);
    if (!read) {
        return tune::make_unexpected(std::move(read.error()));
    }
    return tune::Done{};
}

/// Gives a frame's payload from the socket, in the parts its reader asks for: small parts from
/// a buffer filled a read at a time (a reply's header and counts in one read, not one each), a
/// part at least as large as the buffer straight into its destination. It never reads past the
/// payload, so the next message stays in the socket.
class SocketPayload {
  public:
    SocketPayload(int fd, std::uint64_t length, std::optional<Deadline>& deadline)
        : fd_(fd), unread_(length), deadline_(&deadline) {}

    tune::Result<tune::Done, ReadError> operator()(std::span<std::byte> out) {
        const std::size_t held = std::min(out.size(), end_ - begin_);
        std::copy_n(buffer_.begin() + static_cast<std::ptrdiff_t>(begin_), held, out.begin());
        begin_ += held;
        out = out.subspan(held);
        if (out.empty()) {
            return tune::Done{};
        }
        if (out.size() >= buffer_.size()) {
            unread_ -= out.size();
            return checked(read_exactly(fd_, out, *deadline_));
        }
        // The reader asks for no more than the payload holds, so `unread_` covers `out`.
        const std::size_t wanted =
            static_cast<std::size_t>(std::min<std::uint64_t>(buffer_.size(), unread_));
        auto got = read_at_least(fd_, std::span(buffer_).first(wanted), out.size(), *deadline_);
        if (!got) {
            return checked(tune::make_unexpected(std::move(got.error())));
        }
        unread_ -= got.value();
        std::copy_n(buffer_.begin(), out.size(), out.begin());
        begin_ = out.size();
        end_ = got.value();
        return tune::Done{};
    }

  private:
    /// A peer gone mid-frame left a truncated message.
    static tune::Result<tune::Done, ReadError> checked(tune::Result<tune::Done, ReadError> read) {
        if (!read && read.error().failure == ReadFailure::closed) {
            read.error().message = "truncated message: " + read.error().message;
        }
        return read;
    }

    int fd_;
    std::uint64_t unread_;  ///< bytes of the payload still in the socket
    std::optional<Deadline>* deadline_;
    /// Filled before it is read: left uninitialised, as it is made for every message.
    std::array<std::byte, 4096> buffer_;
    std::size_t begin_ = 0;
    std::size_t end_ = 0;
};

/// A frame as the parts it is sent in, in order: its bytes up to the first blob's length, then
/// each blob's length and the blob itself, so that no blob is copied to be sent. The parts
/// point into `message` and into this.
class FrameParts {
  public:
    explicit FrameParts(const Message& message) {
        // A driver's message or a path may not be UTF-8: replaced, so that a reply never throws.
        const std::string header =
            message.header.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        std::uint64_t payload = 4 + header.size() + 4;
        for (const base::LargeBytes& blob : message.blobs) {
            payload += 8 + blob.size();
        }
        head_.assign(magic.begin(), magic.end());
        put(head_, payload, 8);
        put(head_, header.size(), 4);
        const auto* text = reinterpret_cast<const std::byte*>(header.data());
        head_.insert(head_.end(), text, text + header.size());
        put(head_, message.blobs.size(), 4);
        for (const base::LargeBytes& blob : message.blobs) {
            put(lengths_, blob.size(), 8);
        }
        parts_.emplace_back(head_);
        for (std::size_t i = 0; i < message.blobs.size(); ++i) {
            parts_.emplace_back(std::span(lengths_).subspan(8 * i, 8));
            parts_.emplace_back(message.blobs[i]);
        }
    }
    FrameParts(const FrameParts&) = delete;
    FrameParts& operator=(const FrameParts&) = delete;

    std::span<const std::span<const std::byte>> parts() const noexcept { return parts_; }

  private:
    std::vector<std::byte> head_;
    std::vector<std::byte> lengths_;
    std::vector<std::span<const std::byte>> parts_;
};

}  // namespace

std::vector<std::byte> encode(const Message& message) {
    std::vector<std::byte> frame;
    const FrameParts frame_parts(message);
    for (const std::span<const std::byte> part : frame_parts.parts()) {
        frame.insert(frame.end(), part.begin(), part.end());
    }
    return frame;
}

tune::Result<Message> decode(std::span<const std::byte> frame) {
    if (frame.size() < prefix_bytes) {
        return tune::fail("truncated message: " + std::to_string(frame.size()) +
                          " bytes, shorter than a frame prefix");
    }
    auto length = payload_length(frame.first(prefix_bytes));
    if (!length) {
        return tune::fail(length.error());
    }
    std::span<const std::byte> payload = frame.subspan(prefix_bytes);
    if (payload.size() != length.value()) {
        return tune::fail("truncated message: the frame announces " +
                          std::to_string(length.value()) + " bytes, " +
                          std::to_string(payload.size()) + " follow");
    }
    // The reader checks every length against what is left before it takes any.
    auto from_memory = [&payload](std::span<std::byte> out) -> tune::Result<tune::Done, ReadError> {
        std::copy_n(payload.begin(), out.size(), out.begin());
        payload = payload.subspan(out.size());
        return tune::Done{};
    };
    PayloadReader reader(length.value(), from_memory);
    auto message = read_payload(reader);
    if (!message) {
        return tune::fail(std::move(message.error().message));
    }
    return std::move(message.value());
}

tune::Result<Message, ReadError> read_message(int fd, std::optional<Deadline> deadline) {
    // One deadline for the prefix and the payload, moved on by any stop seen in either.
    std::array<std::byte, prefix_bytes> prefix{};
    if (auto read = read_exactly(fd, prefix, deadline); !read) {
        return tune::make_unexpected(std::move(read.error()));
    }
    auto length = payload_length(prefix);
    if (!length) {
        return garbled(length.error());
    }
    SocketPayload from_socket(fd, length.value(), deadline);
    PayloadReader reader(length.value(), from_socket);
    return read_payload(reader);
}

tune::Status write_message(int fd, const Message& message) {
    const FrameParts frame_parts(message);
    std::vector<iovec> left;
    for (const std::span<const std::byte> part : frame_parts.parts()) {
        if (!part.empty()) {
            // sendmsg only reads through iov_base.
            left.push_back({const_cast<std::byte*>(part.data()), part.size()});
        }
    }
    std::size_t first = 0;
    while (first < left.size()) {
        msghdr header{};
        header.msg_iov = left.data() + first;
        header.msg_iovlen = std::min<std::size_t>(left.size() - first, IOV_MAX);
        // MSG_NOSIGNAL: a worker that died must be an error here, not a SIGPIPE that ends the
        // tuner.
        ssize_t sent = ::sendmsg(fd, &header, MSG_NOSIGNAL);
        if (sent < 0 && errno == EINTR) {
            continue;
        }
        if (sent <= 0) {
            return tune::fail(std::string("send: ") + std::strerror(errno));
        }
        // Past the parts sent whole, and into the one sent in part.
        for (; first < left.size() && static_cast<std::size_t>(sent) >= left[first].iov_len;
             ++first) {
            sent -= static_cast<ssize_t>(left[first].iov_len);
        }
        if (sent > 0) {
            left[first].iov_base = static_cast<std::byte*>(left[first].iov_base) + sent;
            left[first].iov_len -= static_cast<std::size_t>(sent);
        }
    }
    return tune::ok();
}

nlohmann::json sample_to_json(const tune::Sample& sample) {
    return {{"ns", sample.ns_per_run}, {"method", sample.method}, {"runs", sample.runs}};
}

tune::Result<tune::Sample> sample_from_json(const nlohmann::json& json) {
    try {
        tune::Sample sample;
        sample.ns_per_run = json.at("ns").get<double>();
        sample.method = json.at("method").get<tune::TimingMethod>();
        // The enum's JSON mapping reads any unknown name as its first value.
        if (nlohmann::json(sample.method) != json.at("method")) {
            return tune::fail("garbled sample: unknown timing method " +
                              json.at("method").dump().substr(0, 40));
        }
        sample.runs = json.at("runs").get<std::uint64_t>();
        return sample;
    } catch (const nlohmann::json::exception& error) {
        return tune::fail(std::string("garbled sample: ") + error.what());
    }
}

tune::Result<std::vector<tune::Sample>> samples_from_json(const nlohmann::json& json,
                                                          std::size_t expected,
                                                          std::uint64_t runs) {
    if (!json.is_array() || json.size() != expected) {
        return tune::fail("garbled samples: expected a list of " + std::to_string(expected) +
                          ", got " + json.dump().substr(0, 80));
    }
    std::vector<tune::Sample> samples;
    for (std::size_t i = 0; i < json.size(); ++i) {
        tune::Result<tune::Sample> sample = sample_from_json(json[i]);
        if (!sample) {
            return tune::fail("sample " + std::to_string(i) + ": " + sample.error());
        }
        if (!(std::isfinite(sample.value().ns_per_run) && sample.value().ns_per_run > 0) ||
            sample.value().runs != runs) {
            return tune::fail("garbled samples: sample " + std::to_string(i) + " is " +
                              json[i].dump().substr(0, 80) + "; expected a time > 0 over " +
                              std::to_string(runs) + " runs");
        }
        samples.push_back(sample.value());
    }
    return samples;
}

}  // namespace spvtune::run::worker

namespace spvtune::vulkan {

// A float16 specialization value crosses the pipe as its bits.
void to_json(nlohmann::json& json, const Float16& value) {
    json = value.bits;
}

void from_json(const nlohmann::json& json, Float16& value) {
    value.bits = json.get<std::uint16_t>();
}

}  // namespace spvtune::vulkan

namespace spvtune::run::worker {

nlohmann::json specializations_to_json(const std::vector<vulkan::Specialization>& list) {
    nlohmann::json json = nlohmann::json::array();
    for (const vulkan::Specialization& entry : list) {
        // [id, alternative, value]: the alternative keeps the declared type across JSON.
        std::visit(
            [&](auto value) {
                json.push_back({entry.id, entry.value.index(), value});
            },
            entry.value);
    }
    return json;
}

namespace {

template <std::size_t... I>
vulkan::SpecializationValue specialization_value(std::size_t alternative,
                                                 const nlohmann::json& value,
                                                 std::index_sequence<I...>) {
    vulkan::SpecializationValue result;
    const bool known =
        ((alternative == I
              ? (result = value.get<std::variant_alternative_t<I, vulkan::SpecializationValue>>(),
                 true)
              : false) ||
         ...);
    if (!known) {
        throw std::out_of_range("unknown specialization type " + std::to_string(alternative));
    }
    return result;
}

}  // namespace

tune::Result<std::vector<vulkan::Specialization>> specializations_from_json(
    const nlohmann::json& json) {
    try {
        std::vector<vulkan::Specialization> list;
        for (const nlohmann::json& entry : json) {
            list.push_back(
                {entry.at(0).get<std::uint32_t>(),
                 specialization_value(entry.at(1).get<std::size_t>(), entry.at(2),
                                      std::make_index_sequence<
                                          std::variant_size_v<vulkan::SpecializationValue>>{})});
        }
        return list;
    } catch (const std::exception& error) {
        return tune::fail(std::string("garbled specializations: ") + error.what());
    }
}

nlohmann::json step_specializations_to_json(std::span<const problem::ResolvedDispatch> dispatches) {
    nlohmann::json json = nlohmann::json::array();
    for (std::size_t i = 0; i < dispatches.size(); ++i) {
        if (i == 0 || dispatches[i].step != dispatches[i - 1].step) {
            json.push_back(
                {dispatches[i].step, specializations_to_json(dispatches[i].specializations)});
        }
    }
    return json;
}

tune::Result<std::vector<problem::ResolvedDispatch>> step_specializations_from_json(
    const nlohmann::json& json) {
    if (!json.is_array() || json.empty()) {
        return tune::fail("garbled steps: expected a non-empty array");
    }
    std::vector<problem::ResolvedDispatch> steps;
    for (const nlohmann::json& entry : json) {
        if (!entry.is_array() || entry.size() != 2 || !entry[0].is_number_unsigned()) {
            return tune::fail("garbled steps: expected [step, specializations], found " +
                              entry.dump());
        }
        auto list = specializations_from_json(entry[1]);
        if (!list) {
            return tune::fail(list.error());
        }
        problem::ResolvedDispatch step;
        step.step = entry[0].get<std::size_t>();
        step.specializations = std::move(list.value());
        steps.push_back(std::move(step));
    }
    return steps;
}

}  // namespace spvtune::run::worker
