#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <spvtune/problem/resolve.hpp>
#include <spvtune/vulkan/buffer.hpp>
#include <spvtune/vulkan/compute_job.hpp>
#include <spvtune/vulkan/device.hpp>

namespace spvtune::run::detail {

/// The bytes of the guard zone after every buffer: a kernel that overruns its end by up to this
/// much (a whole last workgroup of vec4 writes, and more) is caught.
inline constexpr std::uint64_t guard_after_bytes = 64 * 1024;

/// The least bytes of the guard zone before every buffer: a page, so the data keeps the
/// alignment within its allocation it had without guards (what is timed does not change).
inline constexpr std::uint64_t guard_before_bytes = 4096;

/// A problem's buffer in an allocation with guard zones before and after it, filled with a
/// canary pattern. Shaders are bound to the buffer's own range only, so what they see (its
/// length, arrayLength) is the buffer; a write past either end (not bounds-checked: the device is
/// created without robustBufferAccess) changes the canaries, which check_guards finds.
class GuardedBuffer {
  public:
    GuardedBuffer(vulkan::Device& device, const problem::ResolvedBuffer& spec);

    /// The buffer's own range, at (set, binding).
    vulkan::BufferBinding binding(std::uint32_t set, std::uint32_t binding) const;
    /// Copies `bytes` to the start of the buffer's range.
    void upload(std::span<const std::byte> bytes);
    /// The buffer's range.
    std::vector<std::byte> download() const;

    /// What a run wrote into the guard zones, e.g. "wrote past the end of 'dst': 22 elements
    /// (88 bytes) beyond its 1002"; nothing when the canaries are intact. Changed canaries are
    /// restored, so the next run is checked afresh.
    std::optional<std::string> check_guards(const problem::ResolvedBuffer& spec);

  private:
    vulkan::Buffer buffer_;
    std::uint64_t before_;
    std::uint64_t size_;
};

}  // namespace spvtune::run::detail
