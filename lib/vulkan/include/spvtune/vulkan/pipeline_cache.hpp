#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>

#include <spvtune/vulkan/device.hpp>
#include <spvtune/vulkan/device_identity.hpp>
#include <spvtune/vulkan/unique_handle.hpp>

namespace spvtune::vulkan {

/// Why `data` cannot seed a pipeline cache on the device `identity` describes, or nothing when
/// it can: its VkPipelineCacheHeaderVersionOne must be whole, of version one, and name this
/// vendor, device and pipelineCacheUUID. Data from a file is hostile input: drivers are asked
/// to reject foreign data, but not all are robust, so it is checked here first. Empty data is
/// fine (an empty cache).
std::optional<std::string> pipeline_cache_data_problem(std::span<const std::byte> data,
                                                       const DeviceIdentity& identity);

/// A VkPipelineCache, seeded with data kept from an earlier run when that data suits the device.
///
/// Pipelines may be created with it from several threads at once (it is not created externally
/// synchronised).
class PipelineCache {
  public:
    /// Seeded with `initial` when pipeline_cache_data_problem accepts it; otherwise empty, and
    /// rejected() says why.
    PipelineCache(Device& device, std::span<const std::byte> initial);

    VkPipelineCache handle() const noexcept { return cache_.get(); }
    /// Why the initial data was not used; nothing when it was (or was empty).
    const std::optional<std::string>& rejected() const noexcept { return rejected_; }
    /// Whether it started from kept data.
    bool seeded() const noexcept { return seeded_; }
    /// The cache's contents now, to keep for the next run (vkGetPipelineCacheData).
    std::vector<std::byte> data() const;

  private:
    VkDevice device_;
    std::optional<std::string> rejected_;
    bool seeded_ = false;
    UniqueHandle<VkPipelineCache> cache_;
};

}  // namespace spvtune::vulkan
