#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <spvtune/problem/problem.hpp>
#include <spvtune/problem/resolve.hpp>
#include <spvtune/run/output_check.hpp>
#include <spvtune/tune/anchor.hpp>
#include <spvtune/tune/result.hpp>
#include <spvtune/tune/sampling.hpp>
#include <spvtune/vulkan/batched_timer.hpp>
#include <spvtune/vulkan/compute_pipeline.hpp>
#include <spvtune/vulkan/device.hpp>

/// What the tuner process and its worker process say to each other over one socket.
///
/// A message is a JSON header (the request, or what happened) and binary blobs (buffer contents
/// in the reply to a `run`, the paths of the setup), so the hot path, `measure`, carries a few
/// dozen bytes. A frame is the magic "SPVW", the payload's length (u64), then the payload: the
/// header's length (u32), its text, the blob count (u32) and each blob as its length (u64) and
/// bytes; all little-endian.
///
/// A worker's life, and the only protocol between the two processes (the worker's command line
/// carries nothing but worker_argument):
/// 1. the tuner starts the worker with its end of the socket at worker_fd and sends `setup`
///    (Setup: what to load, which device, how to measure);
/// 2. the worker loads the problem and opens the device, then replies `{"ready": true,
///    "protocol": protocol_version, "candidates": "<candidate list checksum, hex>"}`, or
///    `{"ok": false, "error": "..."}` when it cannot start (a setup of another protocol version
///    among the reasons);
/// 3. the tuner sends requests (`prepare`, `prefetch`, `reference`, `keep_reference`, `run`,
///    `measure`, `save`), each answered
///    `{"ok": true, ...}` or `{"ok": false, "error": "..."}`, with `"device_lost": true` when
///    nothing more can run (the worker then exits);
/// 4. the tuner closes the socket, and the worker exits.
namespace spvtune::run::worker {

struct Message {
    nlohmann::json header = nlohmann::json::object();
    std::vector<base::LargeBytes> blobs;
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
/// A reply's list of samples, which must hold exactly `expected` of them, each a finite time
/// > 0 over the `runs` asked for.
tune::Result<std::vector<tune::Sample>> samples_from_json(const nlohmann::json& json,
                                                          std::size_t expected, std::uint64_t runs);

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

/// The version of this protocol, in the setup and the ready reply: both ends are this very
/// binary, unless it was replaced on disk while the tuner ran.
inline constexpr int protocol_version = 4;

/// How many reference outputs a worker keeps for checked runs (the keys' truths): the oldest
/// goes first, and a run checked against one it no longer has is answered unchecked.
inline constexpr std::size_t kept_references = 4;

/// The `reference` request: outputs `id` (the tuner numbers them) are a key's truth, which later
/// `run` requests with `"check": id` are compared with in the worker. Its buffers as blobs.
Message reference_message(std::uint64_t id, const CandidateOutputs& reference);
/// The id and buffers of a `reference` request; an error when it does not hold `buffers`
/// blobs or a valid id.
tune::Result<std::pair<std::uint64_t, CandidateOutputs>> reference_from_message(
    Message message, std::size_t buffers);

/// The reply to a `run`. Unchecked (`mismatch` unset): the buffers as blobs. Checked against a
/// reference: `"checked": true` and compare_outputs's message, or null when they match, the
/// buffers then left out. The violations in the header either way.
Message outputs_reply(CandidateOutputs outputs, std::optional<std::optional<std::string>> mismatch);
/// The outputs in a `run` reply, `buffers` of them, the verdict against `reference` when the
/// reply says it was checked. An error for a reply that breaks the rules above: the worker's
/// messages are untrusted too.
tune::Result<CandidateOutputs> outputs_from_reply(
    Message reply, std::size_t buffers, const std::shared_ptr<const CandidateOutputs>& reference);

/// The worker's descriptor of its socket: the launcher puts its end there before exec.
inline constexpr int worker_fd = 3;

/// What a worker must agree on with the tuner that started it: the first message of its life.
///
/// The worker loads the problem file itself, with the tuner's load options, rather than receive
/// the tuner's Problem: a Problem holds reflected SPIR-V modules and GLSL compiled per key, which
/// would need a wire format of their own, kept in step with the parser, while loading the file
/// again costs the worker little (compiled GLSL is found in the shared `glsl_cache_dir`). The
/// `ready` reply then names the worker's candidate-list checksum
/// (problem::candidate_list_checksum), which the tuner compares with its own: both ends hold the
/// same candidates, or the worker is not used (the file was edited in between).
struct Setup {
    std::filesystem::path problem_file;
    /// Where the problem's kernels are searched and its compiled GLSL kept, as the tuner loaded it.
    problem::LoadOptions load;
    /// The device selector (vulkan::select_device), the tuner's.
    std::string device;
    /// How many dispatches one sample holds.
    vulkan::BatchPolicy batch;
    /// How coarsely bucketed key parameters share plans, as in the tuner.
    tune::AutotuneLevel level = tune::AutotuneLevel::balanced;
    /// The folder whose file for the worker's device (cache::pipeline_cache_file_name) keeps its
    /// pipeline cache between runs; empty: none. The worker names the file: the tuner may send
    /// the setup before it has looked at the device itself (WorkerExecutor::start_early).
    std::filesystem::path pipeline_cache_dir;
    /// Threads that build the pipelines of prefetched candidates ahead; none:
    /// default_build_threads of the worker's device.
    std::optional<std::size_t> build_threads;
    /// Whether notes that are no error (a pipeline cache file ignored) go to stderr.
    bool notes = false;
    /// The worker device's fence timeout (fence_timeout_for the kernel timeout).
    std::chrono::milliseconds fence_timeout{vulkan::DeviceOptions{}.fence_timeout};
};

/// The `setup` message: numbers and flags in the header; the problem file, the device selector,
/// the pipeline cache folder, the GLSL cache folder (empty: none) and then each kernel folder as a
/// blob of bytes, since a path need not be UTF-8 and a JSON header holds only UTF-8.
Message setup_message(const Setup& setup);
/// The setup in a `setup` message; an error says what is missing or malformed.
tune::Result<Setup> setup_from_message(const Message& message);

}  // namespace spvtune::run::worker
