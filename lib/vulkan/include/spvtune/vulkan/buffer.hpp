#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include <vulkan/vulkan.h>

#include <spvtune/vulkan/device.hpp>
#include <spvtune/vulkan/unique_handle.hpp>

namespace spvtune::vulkan {

/// A storage buffer in the memory a kernel reads fastest.
///
/// Device-local memory is used when the device has it; when that memory is not host-visible
/// (discrete GPUs), uploads and downloads go through a temporary staging buffer. Devices whose
/// only memory is host-visible (lavapipe, many integrated GPUs) are mapped directly.
class Buffer {
  public:
    /// Throws OutOfMemoryError naming the size and the limit when the device cannot hold it.
    Buffer(Device& device, VkDeviceSize size,
           VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                      VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
    Buffer(Buffer&&) noexcept = default;
    Buffer& operator=(Buffer&&) noexcept = default;

    VkBuffer handle() const noexcept { return buffer_.get(); }
    VkDeviceSize size() const noexcept { return size_; }
    /// True when the host reads and writes the buffer's memory directly (no staging copy).
    bool host_visible() const noexcept { return host_visible_; }

    /// Copies `bytes` to the buffer from `offset` on; throws when they do not fit.
    void upload(std::span<const std::byte> bytes, VkDeviceSize offset = 0);
    /// The whole buffer's contents.
    std::vector<std::byte> download() const;
    /// `size` bytes from `offset`; throws when they are not all in the buffer.
    std::vector<std::byte> download(VkDeviceSize offset, VkDeviceSize size) const;
    /// Copies `into.size()` bytes from `offset` into `into` (memory the caller chose); throws
    /// when they are not all in the buffer.
    void download(std::span<std::byte> into, VkDeviceSize offset) const;
    /// Sets `size` bytes from `offset` to `value`; throws when they do not fit. Mapped memory is
    /// written in place, with no copy of the bytes on the host.
    void fill(std::byte value, VkDeviceSize offset, VkDeviceSize size);
    /// Whether the buffer holds `bytes` from `offset` on (false when they would not fit). Mapped
    /// memory is compared in place, with no copy on the host.
    bool holds(std::span<const std::byte> bytes, VkDeviceSize offset = 0) const;
    /// Whether `size` bytes from `offset` lie within the buffer.
    bool fits(VkDeviceSize offset, VkDeviceSize size) const noexcept;

  private:
    Device* device_;
    VkDeviceSize size_;
    /// Where the buffer starts in its memory.
    VkDeviceSize memory_offset_ = 0;
    bool host_visible_ = false;
    UniqueHandle<VkBuffer> buffer_;
    UniqueHandle<VkDeviceMemory> memory_;
};

}  // namespace spvtune::vulkan
