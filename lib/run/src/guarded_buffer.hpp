#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <spvtune/base/large_page_allocator.hpp>
#include <spvtune/problem/resolve.hpp>
#include <spvtune/vulkan/buffer.hpp>
#include <spvtune/vulkan/compute_job.hpp>
#include <spvtune/vulkan/device.hpp>
#include <spvtune/vulkan/spirv_reflection.hpp>

namespace spvtune::run::detail {

/// The bytes of the guard zone after every buffer: a kernel that overruns its end by up to this
/// much (a whole last workgroup of vec4 writes, and more) is caught.
inline constexpr std::uint64_t guard_after_bytes = 64 * 1024;

/// The least bytes of the guard zone before every buffer: a page, so the data keeps the
/// alignment within its allocation it had without guards (what is timed does not change).
inline constexpr std::uint64_t guard_before_bytes = 4096;

/// A problem's buffer in an allocation with guard zones before and after it, filled with a
/// canary pattern. A write past either end changes the canaries, which check_guards finds.
///
/// The device is created without robustBufferAccess, yet some (lavapipe) check every storage
/// access against the bound range all the same and drop a write past it, so the canaries after
/// a storage buffer are bound with it: an overrun lands in them. A shader that takes the
/// buffer's length (arrayLength) would then see a longer buffer, so it gets the buffer's own
/// range, as do uniform buffers (whose reads, never writes, would only grow their range).
class GuardedBuffer {
  public:
    GuardedBuffer(vulkan::Device& device, const problem::ResolvedBuffer& spec);

    /// The buffer bound at (set, binding) for a shader that uses it as `use` (nothing: a binding
    /// the shader does not use): its own range, followed by the guard zone after it (as much as
    /// maxStorageBufferRange allows) for a storage buffer whose length the shader does not take.
    vulkan::BufferBinding binding(std::uint32_t set, std::uint32_t binding,
                                  const vulkan::DescriptorBinding* use) const;
    /// A copy of the buffer's range from the start of `first` (as large), for a job to restore it.
    vulkan::BufferCopy restore_from(const vulkan::Buffer& first) const;
    /// Copies `bytes` to the start of the buffer's range.
    void upload(std::span<const std::byte> bytes);
    /// The buffer's range.
    base::LargeBytes download() const;
    /// The size of the buffer's range in bytes.
    std::uint64_t size() const { return size_; }
    /// Whether the host reads the buffer where it lies (no staging copy).
    bool host_visible() const noexcept { return buffer_.host_visible(); }
    /// Sets every byte of the buffer's range to `value`.
    void fill(std::byte value);
    /// Whether the buffer's range holds exactly `bytes`.
    bool holds(std::span<const std::byte> bytes) const;
    /// Whether the buffer's range holds `bytes` from `offset` (bytes into the range) on.
    bool holds(std::span<const std::byte> bytes, std::uint64_t offset) const;

    /// What a run wrote into the guard zones, e.g. "wrote past the end of 'dst': 22 elements
    /// (88 bytes) beyond its 1002"; nothing when the canaries are intact. Changed canaries are
    /// restored, so the next run is checked afresh.
    std::optional<std::string> check_guards(const problem::ResolvedBuffer& spec);

  private:
    vulkan::Buffer buffer_;
    std::uint64_t before_;
    std::uint64_t size_;
    std::uint64_t max_storage_range_;
    /// The intact guard zones, kept to compare with after every run.
    std::vector<std::byte> intact_before_;
    std::vector<std::byte> intact_after_;
};

}  // namespace spvtune::run::detail
