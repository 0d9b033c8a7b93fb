#include <chrono>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include <doctest/doctest.h>

#include <spvtune/run/worker_protocol.hpp>

namespace worker_protocol_test {

using namespace spvtune::run::worker;
using spvtune::tune::Sample;
using spvtune::tune::TimingMethod;

namespace {

Message example() {
    Message message;
    message.header = {{"op", "run"}, {"candidate", 2}, {"key", {{"n", 4096}}}};
    message.blobs = {{std::byte{1}, std::byte{2}, std::byte{3}}, {}, {std::byte{0xff}}};
    return message;
}

bool contains_text(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

/// A connected socket pair, closed at the end of the test.
struct SocketPair {
    int fds[2] = {-1, -1};
    SocketPair() { REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds) == 0); }
    ~SocketPair() {
        for (int fd : fds) {
            if (fd >= 0) {
                ::close(fd);
            }
        }
    }
    void close(int i) {
        ::close(fds[i]);
        fds[i] = -1;
    }
};

}  // namespace

TEST_CASE("worker protocol: a message survives encode and decode, blobs and header alike") {
    const Message sent = example();
    const auto decoded = decode(encode(sent));
    REQUIRE_MESSAGE(decoded.has_value(), decoded.error());
    CHECK(decoded.value().header == sent.header);
    CHECK(decoded.value().blobs == sent.blobs);
}

TEST_CASE("worker protocol: text that is not UTF-8 crosses as replacement characters") {
    // A driver's message or a path from a directory listing may hold any bytes; a reply that
    // threw on them would end the worker and blame its candidate for a crash.
    Message reply;
    reply.header = {{"ok", false}, {"error", std::string("cannot read /tmp/k\xff\xfe.spv")}};
    std::vector<std::byte> frame;
    REQUIRE_NOTHROW(frame = encode(reply));
    const auto decoded = decode(frame);
    REQUIRE(decoded);
    CHECK(decoded.value().header.at("error") == "cannot read /tmp/k\xef\xbf\xbd\xef\xbf\xbd.spv");
}

TEST_CASE("worker protocol: every truncation of a frame is an error, never a message") {
    const auto frame = encode(example());
    for (std::size_t length = 0; length < frame.size(); ++length) {
        const auto decoded = decode(std::span(frame).first(length));
        REQUIRE_FALSE(decoded.has_value());
        CHECK(decoded.error().find("truncated") != std::string::npos);
    }
}

TEST_CASE("worker protocol: garbled frames are errors that say what is wrong") {
    auto frame = encode(example());
    SUBCASE("a bad magic") {
        frame[0] = std::byte{'X'};
        CHECK(decode(frame).error().find("frame magic") != std::string::npos);
    }
    SUBCASE("a header that is not JSON") {
        frame[16] = std::byte{'#'};  // the header's first character, after prefix and length
        CHECK(decode(frame).error().find("not a JSON object") != std::string::npos);
    }
    SUBCASE("a huge payload length") {
        frame[4 + 7] = std::byte{0x7f};
        CHECK(decode(frame).error().find("a payload of") != std::string::npos);
    }
    SUBCASE("a blob longer than the frame") {
        Message one;
        one.blobs = {{std::byte{7}}};
        auto small = encode(one);
        // The blob's length field sits right before its one byte.
        small[small.size() - 9] = std::byte{9};
        CHECK(decode(small).error().find("a blob needs 9 bytes") != std::string::npos);
    }
}

TEST_CASE("worker protocol: messages cross a socket, and a closed or a silent peer is told apart") {
    SocketPair pair;
    REQUIRE(write_message(pair.fds[0], example()));
    const auto soon = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    auto got = read_message(pair.fds[1], soon);
    REQUIRE(got.has_value());
    CHECK(got.value().blobs == example().blobs);

    const auto quick = std::chrono::steady_clock::now() + std::chrono::milliseconds(50);
    auto silent = read_message(pair.fds[1], quick);
    REQUIRE_FALSE(silent.has_value());
    CHECK(silent.error().failure == ReadFailure::timed_out);

    // Half a frame, then the peer goes away: a truncated message, reported as closed.
    const auto frame = encode(example());
    REQUIRE(::write(pair.fds[0], frame.data(), frame.size() / 2) > 0);
    pair.close(0);
    auto cut = read_message(pair.fds[1], soon);
    REQUIRE_FALSE(cut.has_value());
    CHECK(cut.error().failure == ReadFailure::closed);
    CHECK(cut.error().message.find("truncated") != std::string::npos);

    // Writing to a peer that is gone is an error, not SIGPIPE.
    CHECK_FALSE(write_message(pair.fds[1], example()).has_value());
}

TEST_CASE("worker protocol: garbage on the socket is garbled, not a hang or a huge allocation") {
    SocketPair pair;
    const char junk[] = "hello, this is not a frame";
    REQUIRE(::write(pair.fds[0], junk, sizeof junk) > 0);
    auto got =
        read_message(pair.fds[1], std::chrono::steady_clock::now() + std::chrono::seconds(5));
    REQUIRE_FALSE(got.has_value());
    CHECK(got.error().failure == ReadFailure::garbled);
}

TEST_CASE("worker protocol: a message many times the socket's buffer crosses it whole") {
    // The blobs (one of 6 MiB, which a socket takes a few hundred KiB of at a time, and an empty
    // one between others) are sent as parts and read straight into their own vectors: each
    // send that stops within a part must go on from there.
    SocketPair pair;
    Message sent;
    sent.header = {{"ok", true}, {"note", std::string(1000, 'x')}};
    for (const std::size_t size : {std::size_t{6} << 20, std::size_t{0}, std::size_t{12345}}) {
        spvtune::base::LargeBytes blob(size);
        for (std::size_t i = 0; i < size; ++i) {
            blob[i] = static_cast<std::byte>((i * 7919 + size) % 251);
        }
        sent.blobs.push_back(std::move(blob));
    }
    std::optional<spvtune::tune::Status> written;
    std::thread writer([&] { written = write_message(pair.fds[0], sent); });
    auto got =
        read_message(pair.fds[1], std::chrono::steady_clock::now() + std::chrono::seconds(30));
    writer.join();
    REQUIRE(written.has_value());
    CHECK(written->has_value());
    REQUIRE_MESSAGE(got.has_value(), got.error().message);
    CHECK(got.value().header == sent.header);
    CHECK(got.value().blobs == sent.blobs);
    // Byte for byte what encode() makes, which decode() reads back.
    const auto frame = encode(sent);
    const auto decoded = decode(frame);
    REQUIRE(decoded.has_value());
    CHECK(decoded.value().blobs == sent.blobs);
}

TEST_CASE("worker protocol: messages sent back to back are read one at a time, each whole") {
    // The reader fills a buffer a read at a time; it must stop at its frame's end, or the next
    // message would lose its first bytes to this one.
    SocketPair pair;
    Message second;
    second.header = {{"ok", true}, {"n", 2}};
    second.blobs = {{std::byte{9}, std::byte{8}}, spvtune::base::LargeBytes(5000, std::byte{4})};
    REQUIRE(write_message(pair.fds[0], example()));
    REQUIRE(write_message(pair.fds[0], second));
    const auto soon = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    auto got_first = read_message(pair.fds[1], soon);
    REQUIRE_MESSAGE(got_first.has_value(), got_first.error().message);
    CHECK(got_first.value().header == example().header);
    CHECK(got_first.value().blobs == example().blobs);
    auto got_second = read_message(pair.fds[1], soon);
    REQUIRE_MESSAGE(got_second.has_value(), got_second.error().message);
    CHECK(got_second.value().header == second.header);
    CHECK(got_second.value().blobs == second.blobs);
}

TEST_CASE("worker protocol: a blob longer than what is left of its frame is garbled on a socket") {
    SocketPair pair;
    Message one;
    one.blobs = {{std::byte{7}}};
    auto frame = encode(one);
    // The blob's length field sits right before its one byte: it now claims 4 GiB.
    frame[frame.size() - 5] = std::byte{1};
    REQUIRE(::write(pair.fds[0], frame.data(), frame.size()) == static_cast<ssize_t>(frame.size()));
    auto got =
        read_message(pair.fds[1], std::chrono::steady_clock::now() + std::chrono::seconds(5));
    REQUIRE_FALSE(got.has_value());
    CHECK(got.error().failure == ReadFailure::garbled);
    CHECK(contains_text(got.error().message, "a blob needs 4294967297 bytes, 1 left"));
}

TEST_CASE("worker protocol: samples and specializations keep their values and types") {
    const Sample sample{123.5, TimingMethod::device_timestamps, 17};
    const auto back = sample_from_json(sample_to_json(sample));
    REQUIRE(back.has_value());
    CHECK(back.value().ns_per_run == 123.5);
    CHECK(back.value().method == TimingMethod::device_timestamps);
    CHECK(back.value().runs == 17);
    CHECK_FALSE(sample_from_json({{"ns", "fast"}}).has_value());

    const std::vector<spvtune::vulkan::Specialization> list{{0, std::uint32_t{64}},
                                                            {1, 2.5f},
                                                            {2, true},
                                                            {3, std::int64_t{-5}},
                                                            {4, 0.1},
                                                            {5, std::int8_t{-128}},
                                                            {6, std::uint16_t{65535}},
                                                            {7, spvtune::vulkan::Float16{0x3c00}}};
    const auto decoded = specializations_from_json(specializations_to_json(list));
    REQUIRE(decoded.has_value());
    REQUIRE(decoded.value().size() == list.size());
    for (std::size_t i = 0; i < list.size(); ++i) {
        CHECK(decoded.value()[i].id == list[i].id);
        CHECK(decoded.value()[i].value == list[i].value);
    }
    CHECK_FALSE(specializations_from_json(nlohmann::json::parse("[[0, 99, 1]]")).has_value());
}

TEST_CASE(
    "worker protocol: a round's samples must be as many as asked, each a time over the "
    "runs asked for") {
    const nlohmann::json two =
        nlohmann::json::array({sample_to_json({100.0, TimingMethod::device_timestamps, 8}),
                               sample_to_json({120.0, TimingMethod::device_timestamps, 8})});
    const auto back = samples_from_json(two, 2, 8);
    REQUIRE(back.has_value());
    CHECK(back.value()[1].ns_per_run == 120.0);
    CHECK(contains_text(samples_from_json(two, 3, 8).error(), "expected a list of 3"));
    CHECK(contains_text(samples_from_json(two, 2, 4).error(), "sample 0 is"));
    for (const double bad : {0.0, -5.0, std::numeric_limits<double>::infinity()}) {
        CAPTURE(bad);
        nlohmann::json hostile = two;
        hostile[1]["ns"] = bad;
        CHECK(contains_text(samples_from_json(hostile, 2, 8).error(),
                            "sample 1 is {\"method\":\"device_timestamps\""));
    }
    nlohmann::json garbled = two;
    garbled[0]["runs"] = "many";
    CHECK(contains_text(samples_from_json(garbled, 2, 8).error(), "sample 0: garbled sample"));
    CHECK_FALSE(samples_from_json(nlohmann::json::object(), 1, 8).has_value());
}

TEST_CASE("worker protocol: each step's specializations travel once, in step order") {
    // Step 1 repeats: its two dispatches share one pipeline, so it is sent once.
    std::vector<spvtune::problem::ResolvedDispatch> dispatches(4);
    dispatches[0].step = 0;
    dispatches[0].specializations = {{0, std::uint32_t{64}}};
    dispatches[1].step = 1;
    dispatches[1].specializations = {{0, std::uint32_t{16}}, {1, true}};
    dispatches[2] = dispatches[1];
    dispatches[3].step = 2;
    const auto decoded = step_specializations_from_json(step_specializations_to_json(dispatches));
    REQUIRE(decoded.has_value());
    REQUIRE(decoded.value().size() == 3);
    CHECK(decoded.value()[0].step == 0);
    CHECK(decoded.value()[1].step == 1);
    CHECK(decoded.value()[2].step == 2);
    CHECK(decoded.value()[1].specializations.size() == 2);
    CHECK(decoded.value()[1].specializations[1].value ==
          spvtune::vulkan::SpecializationValue{true});
    CHECK(decoded.value()[2].specializations.empty());
    CHECK_FALSE(step_specializations_from_json(nlohmann::json::array()).has_value());
    CHECK_FALSE(step_specializations_from_json(nlohmann::json::parse("[[\"0\", []]]")).has_value());
}

TEST_CASE("worker protocol: the setup crosses the socket whole, paths as bytes") {
    Setup setup;
    setup.problem_file = "problems/saxpy.json";
    setup.load.kernel_dirs = {"/kernels/a", "relative/b", "caf\xc3\xa9 \xff"};  // not all UTF-8
    setup.load.glsl_cache_dir = "/home/me/.cache/spvtune/glsl";
    setup.device = "llvmpipe";
    setup.batch.min_window = std::chrono::microseconds(200);
    setup.batch.max_batch = 64;
    setup.level = spvtune::tune::AutotuneLevel::extensive;
    setup.pipeline_cache_dir = "/home/me/.cache/spvtune";
    setup.build_threads = 2;
    setup.notes = true;
    const auto frame = encode(setup_message(setup));
    const auto decoded = decode(frame);
    REQUIRE(decoded);
    const auto back = setup_from_message(decoded.value());
    REQUIRE_MESSAGE(back, back.error());
    CHECK(back.value().problem_file == setup.problem_file);
    CHECK(back.value().load.kernel_dirs == setup.load.kernel_dirs);
    CHECK(back.value().load.glsl_cache_dir == setup.load.glsl_cache_dir);
    CHECK(back.value().device == setup.device);
    CHECK(back.value().batch.min_window == setup.batch.min_window);
    CHECK(back.value().batch.max_batch == 64);
    CHECK(back.value().level == spvtune::tune::AutotuneLevel::extensive);
    CHECK(back.value().pipeline_cache_dir == setup.pipeline_cache_dir);
    CHECK(back.value().build_threads == std::optional<std::size_t>(2));
    CHECK(back.value().notes);

    // Nothing optional given: none comes back.
    const auto bare = setup_from_message(setup_message(Setup{}));
    REQUIRE(bare);
    CHECK_FALSE(bare.value().load.glsl_cache_dir);
    CHECK(bare.value().load.kernel_dirs.empty());
    CHECK(bare.value().pipeline_cache_dir.empty());
    // None: the worker sizes them by its device, which the tuner may not have looked at yet.
    CHECK_FALSE(bare.value().build_threads);
    Setup none_built = setup;
    none_built.build_threads = 0;
    const auto zero = setup_from_message(setup_message(none_built));
    REQUIRE(zero);
    CHECK(zero.value().build_threads == std::optional<std::size_t>(0));
}

TEST_CASE("worker protocol: a first message that is no whole setup says what is wrong") {
    CHECK(contains_text(setup_from_message(example()).error(), "not a setup"));
    Message short_of_blobs = setup_message(Setup{});
    short_of_blobs.blobs.pop_back();
    CHECK(contains_text(setup_from_message(short_of_blobs).error(), "blobs"));
    Message bad_level = setup_message(Setup{});
    bad_level.header["level"] = "max";
    CHECK(contains_text(setup_from_message(bad_level).error(), "unknown autotune level 'max'"));
    Message missing = setup_message(Setup{});
    missing.header.erase("min_window_ns");
    CHECK(contains_text(setup_from_message(missing).error(), "garbled setup"));
}

TEST_CASE("worker protocol: a setup of another protocol version, or of none, is refused") {
    Message other = setup_message(Setup{});
    REQUIRE(other.header.at("protocol") == protocol_version);
    other.header["protocol"] = protocol_version + 1;
    CHECK(contains_text(setup_from_message(other).error(),
                        "speaks protocol " + std::to_string(protocol_version)));
    Message none = setup_message(Setup{});
    none.header.erase("protocol");
    CHECK(contains_text(setup_from_message(none).error(), "asks for none"));
}

namespace {

using spvtune::run::CandidateOutputs;

std::shared_ptr<const CandidateOutputs> reference_outputs() {
    return std::make_shared<const CandidateOutputs>(
        CandidateOutputs{{{std::byte{1}, std::byte{2}}, {std::byte{3}}}, {}});
}

/// A run reply as the worker sends it, through encode and decode.
Message sent(const Message& reply) {
    auto decoded = decode(encode(reply));
    REQUIRE(decoded);
    return decoded.value();
}

}  // namespace

TEST_CASE("worker protocol: a run checked in the worker brings only the verdict when it matches") {
    const auto reference = reference_outputs();
    CandidateOutputs matching = *reference;
    const Message reply = sent(outputs_reply(matching, std::optional<std::string>()));
    CHECK(reply.blobs.empty());  // the buffers stayed in the worker
    auto outputs = outputs_from_reply(reply, 2, reference);
    REQUIRE(outputs);
    CHECK(outputs.value().buffers.empty());
    REQUIRE(outputs.value().verdict);
    CHECK(outputs.value().verdict->reference == reference);
    CHECK_FALSE(outputs.value().verdict->mismatch);

    // A mismatch brings its message, the violations and the buffers, for the reference's
    // witnesses to be judged in the tuner.
    CandidateOutputs differing{{{std::byte{1}, std::byte{9}}, {std::byte{3}}},
                               {"writes to input buffer 'x'"}};
    auto wrong = outputs_from_reply(
        sent(outputs_reply(differing, std::optional<std::string>("y[1]: expected 2, got 9"))), 2,
        reference);
    REQUIRE(wrong);
    CHECK(wrong.value().buffers == differing.buffers);
    CHECK(wrong.value().violations == differing.violations);
    REQUIRE(wrong.value().verdict);
    CHECK(wrong.value().verdict->mismatch == "y[1]: expected 2, got 9");

    // Unchecked (the worker did not hold the reference): the buffers, no verdict.
    auto unchecked = outputs_from_reply(sent(outputs_reply(matching, std::nullopt)), 2, reference);
    REQUIRE(unchecked);
    CHECK(unchecked.value().buffers == reference->buffers);
    CHECK_FALSE(unchecked.value().verdict);
    CHECK_FALSE(unchecked.value().reading);  // none was sent
}

TEST_CASE("worker protocol: a run's reading crosses with its verdict or its buffers") {
    const auto reference = reference_outputs();
    CandidateOutputs timed = *reference;
    timed.reading = spvtune::tune::Sample{1234.5, spvtune::tune::TimingMethod::device_timestamps};
    for (const bool checked : {false, true}) {
        CAPTURE(checked);
        const auto verdict = checked ? std::optional<std::optional<std::string>>(std::nullopt)
                                     : std::optional<std::optional<std::string>>();
        auto outputs = outputs_from_reply(sent(outputs_reply(timed, verdict)), 2,
                                          checked ? reference : nullptr);
        REQUIRE(outputs);
        REQUIRE(outputs.value().reading);
        CHECK(outputs.value().reading->ns_per_run == 1234.5);
        CHECK(outputs.value().reading->runs == 1);
        CHECK(outputs.value().reading->method == spvtune::tune::TimingMethod::device_timestamps);
    }
}

TEST_CASE("worker protocol: a run reply that breaks the rules is an error, never outputs") {
    const auto reference = reference_outputs();
    const CandidateOutputs outputs = *reference;
    const auto error = [&](const Message& reply,
                           const std::shared_ptr<const CandidateOutputs>& checked_against) {
        auto read = outputs_from_reply(reply, 2, checked_against);
        REQUIRE_FALSE(read);
        return read.error();
    };
    Message short_of_buffers = outputs_reply(outputs, std::nullopt);
    short_of_buffers.blobs.pop_back();
    CHECK(contains_text(error(short_of_buffers, nullptr), "1 buffer, expected 2 buffers"));
    Message bad_violations = outputs_reply(outputs, std::nullopt);
    bad_violations.header["violations"] = {1, 2};
    CHECK(contains_text(error(bad_violations, nullptr), "a violation is not a string"));
    const Message matched = outputs_reply(outputs, std::optional<std::string>());
    // A verdict for a run that was not to be checked is no verdict the tuner asked for.
    CHECK(contains_text(error(matched, nullptr), "not to be checked"));
    Message matched_with_buffers = matched;
    matched_with_buffers.blobs = outputs.buffers;
    CHECK(contains_text(error(matched_with_buffers, reference), "expected 0 buffers"));
    Message mismatch_without_buffers = outputs_reply(outputs, std::optional<std::string>("m"));
    mismatch_without_buffers.blobs.clear();
    CHECK(contains_text(error(mismatch_without_buffers, reference), "0 buffers, expected 2"));
    Message odd_mismatch = matched;
    odd_mismatch.header["mismatch"] = 7;
    CHECK(contains_text(error(odd_mismatch, reference), "neither null nor a message"));
    Message matched_with_violations = matched;
    matched_with_violations.header["violations"] = {"wrote past the end of 'y'"};
    CHECK(contains_text(error(matched_with_violations, reference), "checked as matching"));
    // A reading must be one run's finite, positive time.
    for (const nlohmann::json& reading :
         {nlohmann::json("fast"),
          nlohmann::json{{"ns", -5.0}, {"method", "device_timestamps"}, {"runs", 1}},
          nlohmann::json{{"ns", 5.0}, {"method", "device_timestamps"}, {"runs", 3}},
          nlohmann::json{{"ns", 5.0}, {"method", "sundial"}, {"runs", 1}}}) {
        CAPTURE(reading.dump());
        Message bad_reading = outputs_reply(outputs, std::nullopt);
        bad_reading.header["reading"] = reading;
        CHECK(contains_text(error(bad_reading, nullptr), "garbled run reply: reading"));
    }
}

TEST_CASE("worker protocol: a reference crosses once with its id, and a wrong one is refused") {
    const auto reference = reference_outputs();
    auto read = reference_from_message(sent(reference_message(41, *reference)), 2);
    REQUIRE(read);
    CHECK(read.value().first == 41);
    CHECK(read.value().second.buffers == reference->buffers);
    CHECK(contains_text(reference_from_message(reference_message(41, *reference), 3).error(),
                        "2 buffers, expected 3 buffers"));
    Message no_id = reference_message(41, *reference);
    no_id.header["id"] = -1;
    CHECK(contains_text(reference_from_message(no_id, 2).error(), "no unsigned id"));
}

}  // namespace worker_protocol_test
