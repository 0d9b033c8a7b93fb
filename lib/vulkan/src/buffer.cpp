#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

#include <spvtune/base/large_page_allocator.hpp>
#include <spvtune/vulkan/buffer.hpp>
#include <spvtune/vulkan/error.hpp>

namespace spvtune::vulkan {
namespace {

constexpr VkMemoryPropertyFlags host_access =
    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;

std::string bytes_text(VkDeviceSize bytes) {
    return std::to_string(bytes) + " bytes (" +
           std::to_string(static_cast<double>(bytes) / (1024.0 * 1024.0)) + " MiB)";
}

std::optional<std::uint32_t> find_memory_type(const VkPhysicalDeviceMemoryProperties& memory,
                                              std::uint32_t allowed, VkMemoryPropertyFlags wanted,
                                              VkMemoryPropertyFlags unwanted = 0) {
    for (std::uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
        const VkMemoryPropertyFlags flags = memory.memoryTypes[i].propertyFlags;
        if ((allowed & (1U << i)) != 0 && (flags & wanted) == wanted && (flags & unwanted) == 0) {
            return i;
        }
    }
    return std::nullopt;
}

/// Device-local first; on a discrete GPU prefer the non-host-visible kind, whose reads are fast.
std::uint32_t choose_memory_type(const PhysicalDeviceInfo& info, std::uint32_t allowed) {
    const auto& memory = info.memory;
    if (info.identity.device_type == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU) {
        if (auto type = find_memory_type(memory, allowed, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT,
                                         VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)) {
            return *type;
        }
    }
    if (auto type =
            find_memory_type(memory, allowed, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | host_access)) {
        return *type;
    }
    if (auto type = find_memory_type(memory, allowed, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)) {
        return *type;
    }
    if (auto type = find_memory_type(memory, allowed, host_access)) {
        return *type;
    }
    throw Error("no memory type of " + info.identity.device_name + " can hold a storage buffer");
}

/// A plain buffer bound to its own allocation, from `offset` on.
struct Allocation {
    UniqueHandle<VkBuffer> buffer;
    UniqueHandle<VkDeviceMemory> memory;
    VkDeviceSize offset = 0;
    bool host_visible = false;
};

/// On a CPU device (lavapipe) device memory is this process's own, and the first touch of each
/// 4 KiB page of it is a page fault: about 10 us in a virtual machine, 10 ms before a 4 MiB
/// buffer even holds its contents. Such a buffer of at least a large page gets a large page more
/// memory, to start at a large-page boundary within it. Mesa 22's lavapipe takes that memory
/// from the C library, where the advice gets huge pages; later ones map a memfd, which gets them
/// only where the kernel's shmem_enabled allows.
bool on_large_pages(const PhysicalDeviceInfo& info, VkDeviceSize size, bool host_visible) {
    return info.identity.device_type == VK_PHYSICAL_DEVICE_TYPE_CPU && host_visible &&
           size >= base::large_page_bytes;
}

/// Where in `memory` (`allocated` bytes, host memory of a CPU device) a buffer starts on a
/// large-page boundary, with the kernel asked for huge pages from there on: only advice, which
/// changes no byte and where it is refused leaves 4 KiB pages. 0 where the boundary would break
/// the buffer's `alignment`.
VkDeviceSize large_page_offset(VkDevice device, VkDeviceMemory memory, VkDeviceSize allocated,
                               VkDeviceSize alignment) {
    void* data = nullptr;
    if (vkMapMemory(device, memory, 0, VK_WHOLE_SIZE, 0, &data) != VK_SUCCESS) {
        return 0;  // the placement is only for speed
    }
    const auto start = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t boundary =
        (start + base::large_page_bytes - 1) / base::large_page_bytes * base::large_page_bytes;
    const VkDeviceSize offset = boundary - start;
    const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    // The end rounded down to a page: the advice must not reach memory past the allocation.
    const std::uintptr_t end = (start + allocated) / page * page;
    const bool usable = alignment != 0 && offset % alignment == 0 && end > boundary;
    if (usable) {
        ::madvise(reinterpret_cast<void*>(boundary), end - boundary, MADV_HUGEPAGE);
    }
    vkUnmapMemory(device, memory);
    return usable ? offset : 0;
}

Allocation allocate(Device& device, VkDeviceSize size, VkBufferUsageFlags usage, bool staging) {
    const PhysicalDeviceInfo& info = device.info();
    if (size == 0) {
        throw Error("cannot create a buffer of 0 bytes");
    }
    if (info.max_memory_allocation_size != 0 && size > info.max_memory_allocation_size) {
        throw OutOfMemoryError("a buffer of " + bytes_text(size) + " exceeds " +
                               info.identity.device_name + "'s largest allocation of " +
                               bytes_text(info.max_memory_allocation_size) +
                               " (maxMemoryAllocationSize)");
    }
    VkDevice handle = device.handle();

    VkBufferCreateInfo buffer_info{};
    buffer_info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    buffer_info.size = size;
    buffer_info.usage = usage | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    buffer_info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    VkBuffer buffer = VK_NULL_HANDLE;
    check(vkCreateBuffer(handle, &buffer_info, nullptr, &buffer), "vkCreateBuffer");
    Allocation result;
    result.buffer = UniqueHandle<VkBuffer>(
        buffer, [handle](VkBuffer b) { vkDestroyBuffer(handle, b, nullptr); });

    VkMemoryRequirements requirements{};
    vkGetBufferMemoryRequirements(handle, buffer, &requirements);
    std::uint32_t type = 0;
    if (staging) {
        auto host = find_memory_type(info.memory, requirements.memoryTypeBits, host_access);
        if (!host) {
            throw Error(info.identity.device_name + " has no host-visible memory for staging");
        }
        type = *host;
    } else {
        type = choose_memory_type(info, requirements.memoryTypeBits);
    }
    const auto& memory_type = info.memory.memoryTypes[type];
    const VkDeviceSize heap_size = info.memory.memoryHeaps[memory_type.heapIndex].size;
    if (requirements.size > heap_size) {
        throw OutOfMemoryError("a buffer of " + bytes_text(size) + " does not fit in " +
                               info.identity.device_name + "'s memory heap of " +
                               bytes_text(heap_size));
    }
    result.host_visible = (memory_type.propertyFlags & host_access) == host_access;
    VkDeviceSize allocation_size = requirements.size;
    const bool large_pages =
        !staging && on_large_pages(info, size, result.host_visible) &&
        requirements.size + base::large_page_bytes <= heap_size &&
        (info.max_memory_allocation_size == 0 ||
         requirements.size + base::large_page_bytes <= info.max_memory_allocation_size);
    if (large_pages) {
        allocation_size += base::large_page_bytes;
    }

    VkMemoryAllocateInfo allocate_info{};
    allocate_info.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    allocate_info.allocationSize = allocation_size;
    allocate_info.memoryTypeIndex = type;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    const VkResult allocated = vkAllocateMemory(handle, &allocate_info, nullptr, &memory);
    if (allocated == VK_ERROR_OUT_OF_DEVICE_MEMORY || allocated == VK_ERROR_OUT_OF_HOST_MEMORY) {
        throw OutOfMemoryError("allocating " + bytes_text(size) + " on " +
                               info.identity.device_name + " failed: " + to_string(allocated));
    }
    check(allocated, "vkAllocateMemory");
    result.memory = UniqueHandle<VkDeviceMemory>(
        memory, [handle](VkDeviceMemory m) { vkFreeMemory(handle, m, nullptr); });
    if (large_pages) {
        result.offset = large_page_offset(handle, memory, allocation_size, requirements.alignment);
    }
    check(vkBindBufferMemory(handle, buffer, memory, result.offset), "vkBindBufferMemory");
    return result;
}

/// Maps an allocation from `offset` (where its buffer starts) for the duration of one copy.
class Mapping {
  public:
    Mapping(VkDevice device, VkDeviceMemory memory, VkDeviceSize offset = 0)
        : device_(device), memory_(memory) {
        check(vkMapMemory(device, memory, offset, VK_WHOLE_SIZE, 0, &data_), "vkMapMemory");
    }
    ~Mapping() { vkUnmapMemory(device_, memory_); }
    Mapping(const Mapping&) = delete;
    Mapping& operator=(const Mapping&) = delete;
    std::byte* data() const noexcept { return static_cast<std::byte*>(data_); }

  private:
    VkDevice device_;
    VkDeviceMemory memory_;
    void* data_ = nullptr;
};

void copy_buffer(Device& device, VkBuffer from, VkDeviceSize from_offset, VkBuffer to,
                 VkDeviceSize to_offset, VkDeviceSize size) {
    device.submit_and_wait([&](VkCommandBuffer commands) {
        VkBufferCopy region{from_offset, to_offset, size};
        vkCmdCopyBuffer(commands, from, to, 1, &region);
    });
}

}  // namespace

Buffer::Buffer(Device& device, VkDeviceSize size, VkBufferUsageFlags usage)
    : device_(&device), size_(size) {
    Allocation allocation = allocate(device, size, usage, /*staging=*/false);
    buffer_ = std::move(allocation.buffer);
    memory_ = std::move(allocation.memory);
    memory_offset_ = allocation.offset;
    host_visible_ = allocation.host_visible;
}

bool Buffer::fits(VkDeviceSize offset, VkDeviceSize size) const noexcept {
    return offset <= size_ && size <= size_ - offset;
}

void Buffer::upload(std::span<const std::byte> bytes, VkDeviceSize offset) {
    if (!fits(offset, bytes.size())) {
        throw Error("cannot upload " + bytes_text(bytes.size()) + " at offset " +
                    std::to_string(offset) + " into a buffer of " + bytes_text(size_));
    }
    if (bytes.empty()) {
        return;
    }
    if (host_visible_) {
        Mapping mapping(device_->handle(), memory_.get(), memory_offset_);
        std::memcpy(mapping.data() + offset, bytes.data(), bytes.size());
        return;
    }
    Allocation staging = allocate(*device_, bytes.size(), 0, /*staging=*/true);
    {
        Mapping mapping(device_->handle(), staging.memory.get());
        std::memcpy(mapping.data(), bytes.data(), bytes.size());
    }
    copy_buffer(*device_, staging.buffer.get(), 0, buffer_.get(), offset, bytes.size());
}

std::vector<std::byte> Buffer::download() const {
    return download(0, size_);
}

std::vector<std::byte> Buffer::download(VkDeviceSize offset, VkDeviceSize size) const {
    if (!fits(offset, size)) {
        throw Error("cannot download " + bytes_text(size) + " at offset " + std::to_string(offset) +
                    " from a buffer of " + bytes_text(size_));
    }
    // Outputs of megabytes are read into memory of the caller's (the span overload): what comes
    // here is small, so zeroing the vector first costs nothing worth a path of its own.
    std::vector<std::byte> bytes(size);
    download(bytes, offset);
    return bytes;
}

void Buffer::download(std::span<std::byte> into, VkDeviceSize offset) const {
    if (!fits(offset, into.size())) {
        throw Error("cannot download " + bytes_text(into.size()) + " at offset " +
                    std::to_string(offset) + " from a buffer of " + bytes_text(size_));
    }
    if (into.empty()) {
        return;
    }
    if (host_visible_) {
        Mapping mapping(device_->handle(), memory_.get(), memory_offset_);
        std::memcpy(into.data(), mapping.data() + offset, into.size());
        return;
    }
    Allocation staging = allocate(*device_, into.size(), 0, /*staging=*/true);
    copy_buffer(*device_, buffer_.get(), offset, staging.buffer.get(), 0, into.size());
    Mapping mapping(device_->handle(), staging.memory.get());
    std::memcpy(into.data(), mapping.data(), into.size());
}

void Buffer::fill(std::byte value, VkDeviceSize offset, VkDeviceSize size) {
    if (!fits(offset, size)) {
        throw Error("cannot fill " + bytes_text(size) + " at offset " + std::to_string(offset) +
                    " of a buffer of " + bytes_text(size_));
    }
    if (size == 0) {
        return;
    }
    if (host_visible_) {
        Mapping mapping(device_->handle(), memory_.get(), memory_offset_);
        std::memset(mapping.data() + offset, std::to_integer<int>(value), size);
        return;
    }
    upload(std::vector<std::byte>(size, value), offset);
}

bool Buffer::holds(std::span<const std::byte> bytes, VkDeviceSize offset) const {
    if (!fits(offset, bytes.size())) {
        return false;
    }
    if (bytes.empty()) {
        return true;
    }
    if (host_visible_) {
        Mapping mapping(device_->handle(), memory_.get(), memory_offset_);
        return std::memcmp(mapping.data() + offset, bytes.data(), bytes.size()) == 0;
    }
    const std::vector<std::byte> held = download(offset, bytes.size());
    return std::memcmp(held.data(), bytes.data(), bytes.size()) == 0;
}

}  // namespace spvtune::vulkan
