#include <cstddef>
#include <string>
#include <vector>

#include <spvtune/run/worker_protocol.hpp>

namespace spvtune::run::worker {
namespace {

/// The blobs before the kernel folders, in this order.
enum SetupBlob : std::size_t { problem_file, device, pipeline_cache_dir, glsl_cache, fixed_blobs };

base::LargeBytes bytes(const std::string& text) {
    const auto* first = reinterpret_cast<const std::byte*>(text.data());
    return {first, first + text.size()};
}

std::string text(std::span<const std::byte> blob) {
    return {reinterpret_cast<const char*>(blob.data()), blob.size()};
}

}  // namespace

Message setup_message(const Setup& setup) {
    Message message;
    message.header = {{"op", "setup"},
                      {"protocol", protocol_version},
                      {"min_window_ns", setup.batch.min_window.count()},
                      {"max_batch", setup.batch.max_batch},
                      {"level", std::string(tune::to_string(setup.level))},
                      {"build_threads", setup.build_threads ? nlohmann::json(*setup.build_threads)
                                                            : nlohmann::json()},
                      {"notes", setup.notes},
                      {"fence_timeout_ms", setup.fence_timeout.count()}};
    message.blobs.resize(fixed_blobs);
    message.blobs[problem_file] = bytes(setup.problem_file.string());
    message.blobs[device] = bytes(setup.device);
    message.blobs[pipeline_cache_dir] = bytes(setup.pipeline_cache_dir.string());
    message.blobs[glsl_cache] = bytes(setup.load.glsl_cache_dir.value_or("").string());
    for (const std::filesystem::path& dir : setup.load.kernel_dirs) {
        message.blobs.push_back(bytes(dir.string()));
    }
    return message;
}

tune::Result<Setup> setup_from_message(const Message& message) {
    const nlohmann::json& header = message.header;
    if (header.value("op", "") != "setup") {
        return tune::fail("garbled setup: the first message is not a setup but " + header.dump());
    }
    if (const auto protocol = header.find("protocol");
        protocol == header.end() || *protocol != protocol_version) {
        return tune::fail("the worker speaks protocol " + std::to_string(protocol_version) +
                          ", the setup asks for " +
                          (protocol == header.end() ? std::string("none") : protocol->dump()));
    }
    if (message.blobs.size() < fixed_blobs) {
        return tune::fail("garbled setup: " + std::to_string(message.blobs.size()) +
                          " blobs, fewer than the " + std::to_string(fixed_blobs) + " it needs");
    }
    Setup setup;
    try {
        setup.batch.min_window =
            std::chrono::nanoseconds(header.at("min_window_ns").get<std::int64_t>());
        setup.batch.max_batch = header.at("max_batch").get<std::uint32_t>();
        if (const nlohmann::json& threads = header.at("build_threads"); !threads.is_null()) {
            setup.build_threads = threads.get<std::size_t>();
        }
        setup.notes = header.at("notes").get<bool>();
        setup.fence_timeout =
            std::chrono::milliseconds(header.at("fence_timeout_ms").get<std::int64_t>());
        auto level = tune::parse_autotune_level(header.at("level").get<std::string>());
        if (!level) {
            return tune::fail("garbled setup: " + level.error());
        }
        setup.level = level.value();
    } catch (const nlohmann::json::exception& error) {
        return tune::fail(std::string("garbled setup: ") + error.what());
    }
    setup.problem_file = text(message.blobs[problem_file]);
    setup.device = text(message.blobs[device]);
    setup.pipeline_cache_dir = text(message.blobs[pipeline_cache_dir]);
    if (const std::string dir = text(message.blobs[glsl_cache]); !dir.empty()) {
        setup.load.glsl_cache_dir = dir;
    }
    for (std::size_t i = fixed_blobs; i < message.blobs.size(); ++i) {
        setup.load.kernel_dirs.emplace_back(text(message.blobs[i]));
    }
    return setup;
}

}  // namespace spvtune::run::worker
