#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <spvtune/problem/resolve.hpp>
#include <spvtune/tune/result.hpp>
#include <spvtune/tune/sampling.hpp>
#include <spvtune/vulkan/compute_pipeline.hpp>

/// What the tuner process and its worker process say to each other over one socket.
///
/// A message is a JSON header (the request, or what happened) and binary blobs (buffer contents,
/// only in the reply to a `run`), so the hot path, `measure`, carries a few dozen bytes. A frame
/// is the magic "SPVW", the payload's length (u64), then the payload: the header's length (u32),
/// its text, the blob count (u32) and each blob as its length (u64) and bytes; all little-endian.
namespace spvtune::run::worker {

struct Message {
    nlohmann::json header = nlohmann::json::object();
    std::vector<std::vector<std::byte>> blobs;
};

/// The whole frame of `message`, length prefix included.
std::vector<std::byte> encode(const Message& message);

/// The message in `frame` (as encode wrote it); an error says what is wrong: a bad magic, a
/// length that does not match, a truncated blob, a header that is not a JSON object.
tune::Result<Message> decode(std::span<const std::byte> frame);

/// Why reading a message failed.
enum class ReadFailure {
    timed_out,  ///< no whole message before the deadline: the peer may be hung
    closed,     ///< the peer closed its end (it exited or died)
    garbled,    ///< bytes that are not a frame: the peer is broken
};

struct ReadError {
    ReadFailure failure = ReadFailure::closed;
    std::string message;
};

using Deadline = std::chrono::steady_clock::time_point;

/// Reads one message from `fd`, waiting until `deadline` at most (none: as long as it takes).
tune::Result<Message, ReadError> read_message(int fd, std::optional<Deadline> deadline);

/// Writes one message to the socket `fd`. A peer that is gone is an error, never SIGPIPE.
tune::Status write_message(int fd, const Message& message);

/// A sample as a header field and back.
nlohmann::json sample_to_json(const tune::Sample& sample);
tune::Result<tune::Sample> sample_from_json(const nlohmann::json& json);

/// Specialization values as a header field and back, each of its declared type.
nlohmann::json specializations_to_json(const std::vector<vulkan::Specialization>& list);
tune::Result<std::vector<vulkan::Specialization>> specializations_from_json(
    const nlohmann::json& json);

/// What the worker needs to build a candidate's pipelines: `[[step, specializations], ...]`,
/// once per step (its repetitions share one pipeline), in step order.
nlohmann::json step_specializations_to_json(std::span<const problem::ResolvedDispatch> dispatches);
/// Those steps back, as dispatches that carry only `step` and `specializations`.
tune::Result<std::vector<problem::ResolvedDispatch>> step_specializations_from_json(
    const nlohmann::json& json);

/// The worker's descriptor of its socket: the launcher puts its end there before exec.
inline constexpr int worker_fd = 3;

}  // namespace spvtune::run::worker
