#pragma once

// What `spvtune tune --dump-outputs DIR` writes: every checked buffer a candidate produced for a
// key, so that outputs can be inspected when every candidate agrees on a wrong answer (say, push
// constants in the wrong order). Each buffer is two files in DIR: `<stem>.bin`, the raw bytes
// (little-endian, as the device wrote them), and `<stem>.json`, its manifest.

#include <cstddef>
#include <filesystem>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <spvtune/problem/problem.hpp>
#include <spvtune/problem/problem_key.hpp>
#include <spvtune/run/output_check.hpp>
#include <spvtune/vulkan/host_data.hpp>

namespace spvtune::run {

class OutputDump {
  public:
    /// Creates `directory` and its parents; throws std::runtime_error saying why it cannot.
    explicit OutputDump(std::filesystem::path directory);

    const std::filesystem::path& directory() const noexcept { return directory_; }

    /// Writes each checked buffer of `outputs` (Problem::reference.compare order) with its
    /// manifest: problem, key, candidate, whether it is the key's reference, buffer, type, count.
    /// File names are made of safe characters only, so nothing is written outside the
    /// directory. Throws std::runtime_error when a file cannot be written.
    void write(const problem::Problem& problem, std::size_t candidate,
               const problem::ProblemKey& key, bool reference, const CandidateOutputs& outputs);

  private:
    std::filesystem::path directory_;
    std::mutex mutex_;  // candidates of different keys may finish on different threads
};

/// One dumped buffer, read back.
struct DumpedOutput {
    nlohmann::json manifest;
    vulkan::ElementType type = vulkan::ElementType::f32;
    std::vector<std::byte> bytes;
    std::size_t count = 0;
};

/// Reads a dumped buffer from its `.bin` or its `.json`; throws std::runtime_error saying what is
/// wrong (missing file, bad manifest, a size that does not match the manifest).
DumpedOutput read_dumped_output(const std::filesystem::path& file);

/// Element `index` as text: integers exactly, floats with enough digits to tell them apart.
std::string format_element(vulkan::ElementType type, std::span<const std::byte> bytes,
                           std::size_t index);

}  // namespace spvtune::run
