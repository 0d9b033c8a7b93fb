#include "guarded_buffer.hpp"

#include <algorithm>
#include <cstddef>

namespace spvtune::run::detail {
namespace {

/// The canary pattern, repeated over the guard zones: neither the outputs' poison (all ones)
/// nor zero, nor a float a kernel is likely to store (0xa55ac33c reads as about -1.9e-16).
constexpr std::byte canary[] = {std::byte{0x3c}, std::byte{0xc3}, std::byte{0x5a}, std::byte{0xa5}};

std::vector<std::byte> canaries(std::uint64_t bytes) {
    std::vector<std::byte> pattern(bytes);
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        pattern[i] = canary[i % sizeof canary];
    }
    return pattern;
}

/// The zone before the data: a page, or more where the device's offset alignment for storage
/// or uniform buffers (a power of two) is larger, so the data's offset is a multiple of both.
std::uint64_t before_bytes(const vulkan::Device& device) {
    const VkPhysicalDeviceLimits& limits = device.info().limits;
    return std::max({guard_before_bytes, std::uint64_t{limits.minStorageBufferOffsetAlignment},
                     std::uint64_t{limits.minUniformBufferOffsetAlignment}});
}

std::string elements_and_bytes(std::uint64_t bytes, std::uint64_t element) {
    const std::uint64_t elements = (bytes + element - 1) / element;
    return std::to_string(elements) + (elements == 1 ? " element (" : " elements (") +
           std::to_string(bytes) + " bytes)";
}

}  // namespace

GuardedBuffer::GuardedBuffer(vulkan::Device& device, const problem::ResolvedBuffer& spec)
    : buffer_(device, before_bytes(device) + spec.bytes + guard_after_bytes),
      before_(before_bytes(device)),
      size_(spec.bytes),
      max_storage_range_(device.info().limits.maxStorageBufferRange),
      intact_before_(canaries(before_)),
      intact_after_(canaries(guard_after_bytes)) {
    buffer_.upload(intact_before_);
    buffer_.upload(intact_after_, before_ + size_);
}

vulkan::BufferBinding GuardedBuffer::binding(std::uint32_t set, std::uint32_t binding,
                                             const vulkan::DescriptorBinding* use) const {
    std::uint64_t range = size_;
    if (use != nullptr && use->type == vulkan::DescriptorType::storage_buffer &&
        !use->uses_array_length) {
        // A buffer larger than the limit alone keeps its size, for ComputeJob to refuse.
        range = std::max(size_, std::min(size_ + guard_after_bytes, max_storage_range_));
    }
    return {set, binding, &buffer_, before_, range};
}

vulkan::BufferCopy GuardedBuffer::restore_from(const vulkan::Buffer& first) const {
    return {&first, 0, &buffer_, before_, size_};
}

void GuardedBuffer::upload(std::span<const std::byte> bytes) {
    buffer_.upload(bytes, before_);
}

base::LargeBytes GuardedBuffer::download() const {
    base::LargeBytes bytes(size_);
    buffer_.download(bytes, before_);
    return bytes;
}

void GuardedBuffer::fill(std::byte value) {
    buffer_.fill(value, before_, size_);
}

bool GuardedBuffer::holds(std::span<const std::byte> bytes) const {
    return bytes.size() == size_ && buffer_.holds(bytes, before_);
}

bool GuardedBuffer::holds(std::span<const std::byte> bytes, std::uint64_t offset) const {
    return offset <= size_ && bytes.size() <= size_ - offset &&
           buffer_.holds(bytes, before_ + offset);
}

std::optional<std::string> GuardedBuffer::check_guards(const problem::ResolvedBuffer& spec) {
    const std::uint64_t element = vulkan::element_size(spec.type);
    std::string message;
    // Intact zones, the usual case, are compared in place; only a changed one is read back.
    const bool before_intact = buffer_.holds(intact_before_);
    const bool after_intact = buffer_.holds(intact_after_, before_ + size_);
    if (before_intact && after_intact) {
        return std::nullopt;
    }
    const std::vector<std::byte>& intact_before = intact_before_;
    const std::vector<std::byte> before =
        before_intact ? intact_before : buffer_.download(0, before_);
    const auto first_changed = std::mismatch(before.begin(), before.end(), intact_before.begin());
    if (first_changed.first != before.end()) {
        // How far before the start the earliest write reached.
        const auto reach = static_cast<std::uint64_t>(before.end() - first_changed.first);
        message = "wrote before the start of '" + spec.name +
                  "': " + elements_and_bytes(reach, element) + " ahead of its first";
        buffer_.upload(intact_before);
    }
    const std::vector<std::byte>& intact_after = intact_after_;
    const std::vector<std::byte> after =
        after_intact ? intact_after : buffer_.download(before_ + size_, guard_after_bytes);
    const auto last_changed = std::mismatch(after.rbegin(), after.rend(), intact_after.rbegin());
    if (last_changed.first != after.rend()) {
        // How far past the end the furthest write reached.
        const auto reach = static_cast<std::uint64_t>(after.rend() - last_changed.first);
        message += (message.empty() ? "" : "; ") + std::string("wrote past the end of '") +
                   spec.name + "': " + elements_and_bytes(reach, element) + " beyond its " +
                   std::to_string(spec.count);
        buffer_.upload(intact_after, before_ + size_);
    }
    if (message.empty()) {
        return std::nullopt;
    }
    return message;
}

}  // namespace spvtune::run::detail
