// The messages that carry outputs between the tuner and its worker: a key's reference outputs
// sent once, and each run's outputs or, for a run checked in the worker, its verdict.

#include <optional>
#include <string>
#include <utility>

#include <spvtune/run/worker_protocol.hpp>

namespace spvtune::run::worker {
namespace {

std::string count_text(std::size_t count) {
    return std::to_string(count) + (count == 1 ? " buffer" : " buffers");
}

tune::Status expect_buffers(const Message& message, std::size_t buffers, const char* what) {
    if (message.blobs.size() != buffers) {
        return tune::fail(std::string("garbled ") + what + ": " + count_text(message.blobs.size()) +
                          ", expected " + count_text(buffers));
    }
    return tune::ok();
}

/// The header's violations: absent is none; anything but an array of strings is garbled.
tune::Result<std::vector<std::string>> violations(const nlohmann::json& header) {
    const auto found = header.find("violations");
    if (found == header.end()) {
        return std::vector<std::string>{};
    }
    std::vector<std::string> list;
    if (!found->is_array()) {
        return tune::fail("garbled run reply: violations is not an array");
    }
    for (const nlohmann::json& violation : *found) {
        if (!violation.is_string()) {
            return tune::fail("garbled run reply: a violation is not a string but " +
                              violation.dump());
        }
        list.push_back(violation.get<std::string>());
    }
    return list;
}

/// The header's reading of the run: absent is none; else one run's finite, positive time.
tune::Result<std::optional<tune::Sample>> reading(const nlohmann::json& header) {
    const auto found = header.find("reading");
    if (found == header.end()) {
        return std::optional<tune::Sample>{};
    }
    auto sample = samples_from_json(nlohmann::json::array({*found}), 1, 1);
    if (!sample) {
        return tune::fail("garbled run reply: reading: " + sample.error());
    }
    return std::optional(sample.value().front());
}

}  // namespace

Message reference_message(std::uint64_t id, const CandidateOutputs& reference) {
    Message message;
    message.header = {{"op", "reference"}, {"id", id}};
    message.blobs = reference.buffers;
    return message;
}

tune::Result<std::pair<std::uint64_t, CandidateOutputs>> reference_from_message(
    Message message, std::size_t buffers) {
    const auto id = message.header.find("id");
    if (id == message.header.end() || !id->is_number_unsigned()) {
        return tune::fail("garbled reference request: no unsigned id");
    }
    if (auto counted = expect_buffers(message, buffers, "reference request"); !counted) {
        return tune::fail(counted.error());
    }
    CandidateOutputs reference;
    reference.buffers = std::move(message.blobs);
    return std::pair{id->get<std::uint64_t>(), std::move(reference)};
}

Message outputs_reply(CandidateOutputs outputs,
                      std::optional<std::optional<std::string>> mismatch) {
    Message reply;
    reply.header = {{"ok", true}, {"violations", std::move(outputs.violations)}};
    if (outputs.reading) {
        reply.header["reading"] = sample_to_json(*outputs.reading);
    }
    if (mismatch) {
        reply.header["checked"] = true;
        reply.header["mismatch"] =
            *mismatch ? nlohmann::json(std::move(**mismatch)) : nlohmann::json(nullptr);
        if (!*mismatch) {
            return reply;  // they match: the buffers need not travel
        }
    }
    reply.blobs = std::move(outputs.buffers);
    return reply;
}

tune::Result<CandidateOutputs> outputs_from_reply(
    Message reply, std::size_t buffers, const std::shared_ptr<const CandidateOutputs>& reference) {
    CandidateOutputs outputs;
    auto listed = violations(reply.header);
    if (!listed) {
        return tune::fail(listed.error());
    }
    outputs.violations = std::move(listed.value());
    auto timed = reading(reply.header);
    if (!timed) {
        return tune::fail(timed.error());
    }
    outputs.reading = timed.value();
    const auto checked = reply.header.find("checked");
    if (checked != reply.header.end() && *checked != false) {
        if (*checked != true || !reference) {
            return tune::fail("garbled run reply: checked is " + checked->dump() +
                              " for a run that was " + (reference ? "" : "not ") + "to be checked");
        }
        const auto mismatch = reply.header.find("mismatch");
        if (mismatch == reply.header.end() || !(mismatch->is_null() || mismatch->is_string())) {
            return tune::fail(
                "garbled run reply: a checked run's mismatch is neither null nor "
                "a message");
        }
        CandidateOutputs::Verdict verdict{reference, std::nullopt};
        if (mismatch->is_string()) {
            verdict.mismatch = mismatch->get<std::string>();
        } else if (!outputs.violations.empty()) {
            return tune::fail("garbled run reply: a run with violations checked as matching");
        }
        // Outputs that differ come along: what may put the reference at fault is judged here.
        if (auto counted = expect_buffers(reply, verdict.mismatch ? buffers : 0, "run reply");
            !counted) {
            return tune::fail(counted.error());
        }
        outputs.verdict = std::move(verdict);
    } else if (auto counted = expect_buffers(reply, buffers, "run reply"); !counted) {
        return tune::fail(counted.error());
    }
    outputs.buffers = std::move(reply.blobs);
    return outputs;
}

}  // namespace spvtune::run::worker
