#include <algorithm>
#include <fstream>
#include <sstream>

#include <spvtune/run/device_limits.hpp>
#include <spvtune/vulkan/capabilities.hpp>

namespace spvtune::run {
namespace {

std::string of(const DeviceLimits& limits) {
    return " of " + (limits.device_name.empty() ? std::string("the device") : limits.device_name);
}

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/// Whether one dispatch fits the limits on workgroups, push constants and buffer ranges.
tune::Status check_dispatch(const problem::ResolvedDispatch& dispatch,
                            std::span<const problem::ResolvedBuffer> buffers,
                            const DeviceLimits& limits) {
    static constexpr char axes[] = {'x', 'y', 'z'};
    for (std::size_t i = 0; i < 3; ++i) {
        if (dispatch.workgroup_counts[i] > limits.max_workgroup_count[i]) {
            return tune::fail("workgroup count " + std::string(1, axes[i]) + " = " +
                              std::to_string(dispatch.workgroup_counts[i]) +
                              " exceeds maxComputeWorkGroupCount[" + std::to_string(i) +
                              "] = " + std::to_string(limits.max_workgroup_count[i]) + of(limits));
        }
    }
    std::uint64_t invocations = 1;
    for (std::size_t i = 0; i < 3; ++i) {
        // Vulkan requires every dimension >= 1; a zero (a grid value fed to local_size_x_id)
        // would reach pipeline creation and fail there, or crash a driver.
        if (dispatch.workgroup_size[i] == 0) {
            return tune::fail("workgroup size " + std::string(1, axes[i]) +
                              " = 0; expected at least 1");
        }
        if (dispatch.workgroup_size[i] > limits.max_workgroup_size[i]) {
            return tune::fail("workgroup size " + std::string(1, axes[i]) + " = " +
                              std::to_string(dispatch.workgroup_size[i]) +
                              " exceeds maxComputeWorkGroupSize[" + std::to_string(i) +
                              "] = " + std::to_string(limits.max_workgroup_size[i]) + of(limits));
        }
        invocations *= dispatch.workgroup_size[i];
    }
    if (invocations > limits.max_workgroup_invocations) {
        return tune::fail("workgroup size " + std::to_string(dispatch.workgroup_size[0]) + "x" +
                          std::to_string(dispatch.workgroup_size[1]) + "x" +
                          std::to_string(dispatch.workgroup_size[2]) + " = " +
                          std::to_string(invocations) +
                          " invocations exceeds maxComputeWorkGroupInvocations = " +
                          std::to_string(limits.max_workgroup_invocations) + of(limits));
    }
    if (dispatch.push_constants.size() > limits.max_push_constants_size) {
        return tune::fail("push constants of " + std::to_string(dispatch.push_constants.size()) +
                          " bytes exceed maxPushConstantsSize = " +
                          std::to_string(limits.max_push_constants_size) + of(limits));
    }
    for (const problem::ResolvedBinding& binding : dispatch.bindings) {
        const problem::ResolvedBuffer& buffer = buffers[binding.buffer];
        const bool uniform = binding.type == vulkan::DescriptorType::uniform_buffer;
        const std::uint64_t range =
            uniform ? limits.max_uniform_buffer_range : limits.max_storage_buffer_range;
        if (buffer.bytes > range) {
            return tune::fail("buffer '" + buffer.name + "' is " + std::to_string(buffer.bytes) +
                              " bytes, which exceeds " +
                              (uniform ? "maxUniformBufferRange" : "maxStorageBufferRange") +
                              " = " + std::to_string(range) + of(limits));
        }
    }
    return tune::ok();
}

/// MemAvailable of /proc/meminfo in bytes: what the kernel can give without swapping; 0 when
/// it cannot be read.
std::uint64_t available_host_memory() {
    std::ifstream meminfo("/proc/meminfo");
    std::string line;
    while (std::getline(meminfo, line)) {
        if (line.rfind("MemAvailable:", 0) == 0) {
            std::istringstream fields(line.substr(13));
            std::uint64_t kib = 0;
            return fields >> kib ? kib * 1024 : 0;
        }
    }
    return 0;
}

}  // namespace

DeviceLimits DeviceLimits::from(const vulkan::PhysicalDeviceInfo& device) {
    const VkPhysicalDeviceLimits& l = device.limits;
    DeviceLimits limits;
    limits.device_name = device.identity.device_name;
    for (std::size_t i = 0; i < 3; ++i) {
        limits.max_workgroup_count[i] = l.maxComputeWorkGroupCount[i];
        limits.max_workgroup_size[i] = l.maxComputeWorkGroupSize[i];
    }
    limits.max_workgroup_invocations = l.maxComputeWorkGroupInvocations;
    limits.max_shared_memory = l.maxComputeSharedMemorySize;
    limits.subgroup_size = device.subgroups.size;
    limits.max_push_constants_size = l.maxPushConstantsSize;
    limits.max_storage_buffer_range = l.maxStorageBufferRange;
    limits.max_uniform_buffer_range = l.maxUniformBufferRange;
    limits.max_memory_allocation_size = device.max_memory_allocation_size;
    limits.capabilities = vulkan::capabilities(device);
    limits.host_memory = available_host_memory();
    limits.device_memory = largest_device_local_heap(device);
    return limits;
}

std::uint64_t largest_device_local_heap(const vulkan::PhysicalDeviceInfo& device) {
    std::uint64_t largest = 0;
    for (std::uint32_t i = 0; i < device.memory.memoryHeapCount; ++i) {
        const VkMemoryHeap& heap = device.memory.memoryHeaps[i];
        if ((heap.flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) != 0) {
            largest = std::max<std::uint64_t>(largest, heap.size);
        }
    }
    return largest;
}

problem::DeviceProperties DeviceLimits::properties() const {
    problem::DeviceProperties properties;
    properties.subgroup_size = subgroup_size;
    properties.max_shared_memory = max_shared_memory;
    properties.max_workgroup_size = max_workgroup_size;
    properties.max_workgroup_invocations = max_workgroup_invocations;
    return properties;
}

std::uint64_t device_bytes_needed(std::span<const problem::ResolvedBuffer> buffers) {
    std::uint64_t total = 0;
    for (const problem::ResolvedBuffer& buffer : buffers) {
        total = saturating_add(total, buffer.bytes);
        if (is_checked(buffer.role)) {
            total = saturating_add(total, buffer.bytes);
        }
    }
    return total;
}

std::uint64_t host_bytes_needed(std::span<const problem::ResolvedBuffer> buffers) {
    std::uint64_t total = 0;
    for (const problem::ResolvedBuffer& buffer : buffers) {
        const std::uint64_t copies = is_checked(buffer.role) ? 4 : 1;
        total = saturating_add(
            total, buffer.bytes > UINT64_MAX / copies ? UINT64_MAX : buffer.bytes * copies);
    }
    return total;
}

tune::Status check_host_memory(std::span<const problem::ResolvedBuffer> buffers,
                               const DeviceLimits& limits) {
    const std::uint64_t needed = host_bytes_needed(buffers);
    if (limits.host_memory != 0 && needed > limits.host_memory) {
        return tune::fail("the buffers need " + std::to_string(needed) +
                          " bytes of host memory (initial contents, and each checked buffer "
                          "three more times for the checks), more than the " +
                          std::to_string(limits.host_memory) + " bytes available");
    }
    return tune::ok();
}

tune::Status check_device_limits(const problem::ResolvedCandidate& candidate,
                                 std::span<const problem::ResolvedBuffer> buffers,
                                 const DeviceLimits& limits) {
    for (const std::string& capability : candidate.required_capabilities) {
        if (std::find(limits.capabilities.begin(), limits.capabilities.end(), capability) ==
            limits.capabilities.end()) {
            return tune::fail("needs " + capability + ", which" + of(limits).substr(3) + " lacks");
        }
    }
    for (const problem::ResolvedDispatch& dispatch : candidate.dispatches) {
        if (auto fits = check_dispatch(dispatch, buffers, limits); !fits) {
            // Which pass does not fit matters once there are several.
            return candidate.dispatches.size() == 1
                       ? fits
                       : tune::fail("step " + std::to_string(dispatch.step) + ": " +
                                    std::move(fits).error());
        }
    }
    for (const problem::ResolvedBuffer& buffer : buffers) {
        if (limits.max_memory_allocation_size != 0 &&
            buffer.bytes > limits.max_memory_allocation_size) {
            return tune::fail("buffer '" + buffer.name + "' is " + std::to_string(buffer.bytes) +
                              " bytes, which exceeds maxMemoryAllocationSize = " +
                              std::to_string(limits.max_memory_allocation_size) + of(limits));
        }
    }
    const std::uint64_t needed = device_bytes_needed(buffers);
    if (limits.device_memory != 0 && needed > limits.device_memory) {
        return tune::fail("the buffers need " + std::to_string(needed) +
                          " bytes of device memory (outputs twice), more than the " +
                          std::to_string(limits.device_memory) + "-byte device-local heap" +
                          of(limits));
    }
    return tune::ok();
}

}  // namespace spvtune::run
