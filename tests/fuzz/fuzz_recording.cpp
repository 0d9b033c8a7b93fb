// Fuzzes what `spvtune replay` does with a recording file, in its order: gzip data decompressed
// (app/gzip_input.cpp), the JSON checked for depth and NUL bytes, parsed (an unfinished Kernel
// Tuner cache closed), read as a recording. Each step may refuse the input only in its
// documented way (std::runtime_error, nlohmann::json::exception). What reads must replay, be
// written as a Kernel Tuner cache file and a T4 results file, and each written file must read
// back as the same points.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include <spvtune/base/json_text.hpp>
#include <spvtune/tune/recording.hpp>
#include <spvtune/tune/replay.hpp>

#include "gzip_input.hpp"

namespace {

/// Smaller than replay's 256 MiB so that a bomb is stopped quickly; the limit is the same code.
constexpr std::size_t max_text_bytes = std::size_t{16} << 20;
constexpr std::size_t max_nesting = 32;
/// Replaying a large space on every input would make the fuzzer slow, not find more.
constexpr std::size_t max_replayed_points = 64;

[[noreturn]] void finding(const std::string& what) {
    std::fprintf(stderr, "%s\n", what.c_str());
    std::abort();
}

void check_reads_back(const spvtune::tune::Recording& recording, const nlohmann::json& written,
                      const char* format) {
    spvtune::tune::Recording again;
    try {
        again = spvtune::tune::read_recording(written, format);
    } catch (const std::runtime_error& error) {
        finding(std::string("a written ") + format + " does not read back: " + error.what());
    }
    if (again.points.size() != recording.points.size()) {
        finding(std::string("a written ") + format + " reads back " +
                std::to_string(again.points.size()) + " points of " +
                std::to_string(recording.points.size()));
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string text(reinterpret_cast<const char*>(data), size);
    spvtune::tune::Recording recording;
    try {
        if (spvtune::app::is_gzip(text)) {
            text = spvtune::app::gunzip(text, max_text_bytes);
        }
        if (spvtune::base::check_json_text(text, max_nesting)) {
            return 0;
        }
        const spvtune::tune::RecordingText parsed = spvtune::tune::parse_recording_text(text);
        recording = spvtune::tune::read_recording(parsed.json, "fuzz.json");
    } catch (const std::runtime_error&) {
        return 0;
    } catch (const nlohmann::json::exception&) {
        return 0;
    }
    nlohmann::json kernel_tuner;
    try {
        kernel_tuner = spvtune::tune::kernel_tuner_cache(recording, "2026-12-05T00:00:00Z");
    } catch (const std::runtime_error&) {
        kernel_tuner = nullptr;  // two configurations Kernel Tuner would file under one key
    }
    if (!kernel_tuner.is_null()) {
        check_reads_back(recording, kernel_tuner, "Kernel Tuner cache file");
    }
    check_reads_back(recording, spvtune::tune::t4_results(recording), "T4 results file");
    if (recording.points.size() <= max_replayed_points) {
        spvtune::tune::SearchSettings settings;
        settings.strategy = spvtune::tune::SearchStrategy::local;
        (void)spvtune::tune::replay_search(recording, settings, spvtune::tune::SamplingSettings{});
    }
    return 0;
}
