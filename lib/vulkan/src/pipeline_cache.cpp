#include <cstring>

#include <spvtune/vulkan/error.hpp>
#include <spvtune/vulkan/pipeline_cache.hpp>

namespace spvtune::vulkan {

std::optional<std::string> pipeline_cache_data_problem(std::span<const std::byte> data,
                                                       const DeviceIdentity& identity) {
    if (data.empty()) {
        return std::nullopt;
    }
    VkPipelineCacheHeaderVersionOne header{};
    if (data.size() < sizeof header) {
        return "its header is truncated (" + std::to_string(data.size()) + " bytes)";
    }
    // Copied out, since the bytes need not be aligned for the struct.
    std::memcpy(&header, data.data(), sizeof header);
    if (header.headerSize < sizeof header || header.headerSize > data.size()) {
        return "its header size " + std::to_string(header.headerSize) + " is not between " +
               std::to_string(sizeof header) + " and the data's " + std::to_string(data.size()) +
               " bytes";
    }
    if (header.headerVersion != VK_PIPELINE_CACHE_HEADER_VERSION_ONE) {
        return "its header version is " + std::to_string(header.headerVersion) + ", not 1";
    }
    if (header.vendorID != identity.vendor_id || header.deviceID != identity.device_id) {
        return "it is for another device (vendor " + std::to_string(header.vendorID) + ", device " +
               std::to_string(header.deviceID) + ")";
    }
    if (std::memcmp(header.pipelineCacheUUID, identity.pipeline_cache_uuid.data(), VK_UUID_SIZE) !=
        0) {
        return "its pipeline cache UUID is not this driver's";
    }
    return std::nullopt;
}

PipelineCache::PipelineCache(Device& device, std::span<const std::byte> initial)
    : device_(device.handle()),
      rejected_(pipeline_cache_data_problem(initial, device.info().identity)) {
    VkPipelineCacheCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO;
    if (!rejected_ && !initial.empty()) {
        info.initialDataSize = initial.size();
        info.pInitialData = initial.data();
        seeded_ = true;
    }
    VkPipelineCache cache = VK_NULL_HANDLE;
    check(vkCreatePipelineCache(device_, &info, nullptr, &cache), "vkCreatePipelineCache");
    VkDevice handle = device_;
    cache_ = UniqueHandle<VkPipelineCache>(
        cache, [handle](VkPipelineCache c) { vkDestroyPipelineCache(handle, c, nullptr); });
}

std::vector<std::byte> PipelineCache::data() const {
    // The size can grow between the two calls while pipelines are created: retry on
    // VK_INCOMPLETE rather than keep a truncated cache.
    while (true) {
        std::size_t size = 0;
        check(vkGetPipelineCacheData(device_, cache_.get(), &size, nullptr),
              "vkGetPipelineCacheData");
        std::vector<std::byte> bytes(size);
        const VkResult result = vkGetPipelineCacheData(device_, cache_.get(), &size, bytes.data());
        if (result == VK_INCOMPLETE) {
            continue;
        }
        check(result, "vkGetPipelineCacheData");
        bytes.resize(size);
        return bytes;
    }
}

}  // namespace spvtune::vulkan
