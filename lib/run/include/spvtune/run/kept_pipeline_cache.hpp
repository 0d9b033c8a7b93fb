#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include <spvtune/vulkan/device.hpp>
#include <spvtune/vulkan/pipeline_cache.hpp>

namespace spvtune::run {

/// The pipeline cache of one device kept on disk between runs, in the cache directory next to
/// the cache file (cache::pipeline_cache_file_name), so a second run's pipeline builds are hits.
///
/// Loading never fails: a file that is damaged, truncated, foreign (another device or driver,
/// its pipelineCacheUUID) or unreadable is ignored, said to `note`, and replaced on save. Saving
/// replaces the file atomically (last writer wins when two runs share it) and never throws:
/// a pipeline cache that cannot be kept only costs the next run its builds.
class KeptPipelineCache {
  public:
    using Note = std::function<void(const std::string&)>;

    /// Loads `file` (a missing one is an empty cache); `note` hears why a file was ignored and
    /// why a save failed (null: nobody).
    KeptPipelineCache(vulkan::Device& device, std::filesystem::path file, Note note = {});
    /// Saves.
    ~KeptPipelineCache();
    KeptPipelineCache(const KeptPipelineCache&) = delete;
    KeptPipelineCache& operator=(const KeptPipelineCache&) = delete;

    vulkan::PipelineCache& cache() noexcept { return cache_; }
    const std::filesystem::path& file() const noexcept { return file_; }
    /// Whether the file's data seeded the cache.
    bool loaded() const noexcept { return cache_.seeded(); }

    /// Writes the cache's contents to the file unless it holds them already (a driver that keeps
    /// nothing in its pipeline caches still gets a file: its header, checked on the next load).
    /// Safe while pipelines are being created with the cache on other threads.
    void save() noexcept;

  private:
    std::filesystem::path file_;
    Note note_;
    /// The digest of what the file holds, when it holds this cache's contents.
    std::optional<std::uint64_t> saved_digest_;
    vulkan::PipelineCache cache_;
};

}  // namespace spvtune::run
