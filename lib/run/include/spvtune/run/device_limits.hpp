#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

#include <spvtune/problem/device_properties.hpp>
#include <spvtune/problem/resolve.hpp>
#include <spvtune/tune/result.hpp>
#include <spvtune/vulkan/physical_device_info.hpp>

namespace spvtune::run {

/// The limits of a device that decide whether a resolved candidate can run on it. Plain data,
/// so the check runs (and is tested) without a device.
struct DeviceLimits {
    std::string device_name;
    std::array<std::uint32_t, 3> max_workgroup_count{};
    std::array<std::uint32_t, 3> max_workgroup_size{};
    std::uint32_t max_workgroup_invocations = 0;
    std::uint32_t max_shared_memory = 0;  ///< maxComputeSharedMemorySize, bytes
    /// The subgroup size of compute shaders (0: unknown, a Vulkan 1.0 device).
    std::uint32_t subgroup_size = 0;
    std::uint32_t max_push_constants_size = 0;
    std::uint64_t max_storage_buffer_range = 0;
    std::uint64_t max_uniform_buffer_range = 0;
    std::uint64_t max_memory_allocation_size = 0;
    /// The largest device-local memory heap.
    std::uint64_t device_memory = 0;
    /// Host memory available when the limits were read (MemAvailable); 0 when unknown.
    std::uint64_t host_memory = 0;
    /// What the device can do beyond the core (vulkan::capabilities names).
    std::vector<std::string> capabilities;

    static DeviceLimits from(const vulkan::PhysicalDeviceInfo& device);

    /// What a candidate's expressions read as `device.<name>` variables.
    problem::DeviceProperties properties() const;
};

/// The size of the device's largest device-local memory heap (0: none), without reading the
/// rest of its limits.
std::uint64_t largest_device_local_heap(const vulkan::PhysicalDeviceInfo& device);

/// Bytes of device memory a key needs: every buffer, plus a second copy of each checked buffer
/// (candidates write their own copies, compared with the reference's).
std::uint64_t device_bytes_needed(std::span<const problem::ResolvedBuffer> buffers);

/// Bytes of host memory a key needs whichever candidates it has: each buffer's initial contents,
/// and three copies of each checked buffer (the poison written before a run, the reference's
/// output kept for the checks and the output of the candidate being compared).
std::uint64_t host_bytes_needed(std::span<const problem::ResolvedBuffer> buffers);

/// Whether a key with `buffers` fits the host memory of `limits`: an error naming both sizes
/// when it does not, so a key too large for the machine fails before anything is allocated.
tune::Status check_host_memory(std::span<const problem::ResolvedBuffer> buffers,
                               const DeviceLimits& limits);

/// Whether `candidate` with `buffers` fits `limits`; the failure names the value, the limit and
/// the device: "workgroup count x = 70000 exceeds maxComputeWorkGroupCount[0] = 65535 of
/// llvmpipe".
tune::Status check_device_limits(const problem::ResolvedCandidate& candidate,
                                 std::span<const problem::ResolvedBuffer> buffers,
                                 const DeviceLimits& limits);

}  // namespace spvtune::run
