#include <string>

#include <spvtune/vulkan/device.hpp>
#include <spvtune/vulkan/error.hpp>

#include "driver_pinning.hpp"
#include "feature_chain.hpp"

namespace spvtune::vulkan {
namespace {

/// How long a submission that missed its fence timeout may still finish before the device is
/// considered hung.
constexpr std::uint64_t grace_period_ns = 10'000'000'000ULL;

}  // namespace

Device::Device(const Instance& /*instance*/, const PhysicalDeviceInfo& physical,
               DeviceOptions options)
    : physical_(physical), options_(options) {
    if (!physical_.compute_queue_family) {
        throw DeviceSelectionError(physical_.identity.device_name +
                                   " has no compute-capable queue family");
    }
    // Enable exactly the optional features the device supports and kernels may use (see
    // ShaderFeatures); everything else stays off, so a kernel needing more is rejected by
    // validation rather than silently working here only.
    const ShaderFeatures& wanted = physical_.features;
    detail::FeatureChain enabled(physical_.identity.api_version >= VK_API_VERSION_1_2);
    enabled.core.features.shaderFloat64 = wanted.float64;
    enabled.core.features.shaderInt64 = wanted.int64;
    enabled.core.features.shaderInt16 = wanted.int16;
    enabled.v11.storageBuffer16BitAccess = wanted.storage_buffer_16bit;
    enabled.v12.shaderFloat16 = wanted.float16;
    enabled.v12.shaderInt8 = wanted.int8;
    enabled.v12.storageBuffer8BitAccess = wanted.storage_buffer_8bit;

    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queue_info{};
    queue_info.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
    queue_info.queueFamilyIndex = *physical_.compute_queue_family;
    queue_info.queueCount = 1;
    queue_info.pQueuePriorities = &priority;

    VkDeviceCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    info.pNext = &enabled.core;
    info.queueCreateInfoCount = 1;
    info.pQueueCreateInfos = &queue_info;

    VkDevice device = VK_NULL_HANDLE;
    check(vkCreateDevice(physical_.handle, &info, nullptr, &device), "vkCreateDevice");
    device_ = UniqueHandle<VkDevice>(device, [](VkDevice d) { vkDestroyDevice(d, nullptr); });
    // A driver may load more libraries (a compiler, say) only once a device exists.
    detail::pin_loaded_libraries_for_leak_checks();
    vkGetDeviceQueue(device, *physical_.compute_queue_family, 0, &queue_);

    VkCommandPoolCreateInfo pool_info{};
    pool_info.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
    pool_info.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
    pool_info.queueFamilyIndex = *physical_.compute_queue_family;
    VkCommandPool pool = VK_NULL_HANDLE;
    check(vkCreateCommandPool(device, &pool_info, nullptr, &pool), "vkCreateCommandPool");
    command_pool_ = UniqueHandle<VkCommandPool>(
        pool, [device](VkCommandPool p) { vkDestroyCommandPool(device, p, nullptr); });

    VkFenceCreateInfo fence_info{};
    fence_info.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
    VkFence fence = VK_NULL_HANDLE;
    check(vkCreateFence(device, &fence_info, nullptr, &fence), "vkCreateFence");
    fence_ =
        UniqueHandle<VkFence>(fence, [device](VkFence f) { vkDestroyFence(device, f, nullptr); });
}

Device::~Device() {
    if (device_ && !hung_) {
        // Nothing may be destroyed while the queue still uses it; errors here cannot be
        // reported from a destructor and the device goes away regardless.
        vkDeviceWaitIdle(device_.get());
    }
    fence_.reset();
    command_pool_.reset();
    device_.reset();
}

void Device::wait_idle() {
    check(vkDeviceWaitIdle(device_.get()), "vkDeviceWaitIdle");
}

void Device::submit_and_wait(const std::function<void(VkCommandBuffer)>& record) {
    submit_and_wait(record, options_.fence_timeout, "the fence timeout",
                    options_.fence_timeout_hint);
}

void Device::submit_and_wait(const std::function<void(VkCommandBuffer)>& record,
                             std::chrono::milliseconds timeout, std::string_view timeout_name,
                             std::string_view raise_hint) {
    std::lock_guard lock(submit_mutex_);
    if (hung_) {
        throw TimeoutError("an earlier submission on " + physical_.identity.device_name +
                           " timed out; the device cannot be used any more");
    }
    VkDevice device = device_.get();

    VkCommandBufferAllocateInfo allocate{};
    allocate.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    allocate.commandPool = command_pool_.get();
    allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    allocate.commandBufferCount = 1;
    VkCommandBuffer raw = VK_NULL_HANDLE;
    check(vkAllocateCommandBuffers(device, &allocate, &raw), "vkAllocateCommandBuffers");
    UniqueHandle<VkCommandBuffer> commands(raw,
                                           [device, pool = command_pool_.get()](VkCommandBuffer c) {
                                               vkFreeCommandBuffers(device, pool, 1, &c);
                                           });

    VkCommandBufferBeginInfo begin{};
    begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    check(vkBeginCommandBuffer(raw, &begin), "vkBeginCommandBuffer");
    record(raw);
    check(vkEndCommandBuffer(raw), "vkEndCommandBuffer");

    VkSubmitInfo submit{};
    submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &raw;
    VkFence fence = fence_.get();
    check(vkResetFences(device, 1, &fence), "vkResetFences");
    check(vkQueueSubmit(queue_, 1, &submit, fence), "vkQueueSubmit");

    const auto timeout_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(timeout).count();
    const VkResult waited =
        vkWaitForFences(device, 1, &fence, VK_TRUE, static_cast<std::uint64_t>(timeout_ns));
    if (waited == VK_TIMEOUT) {
        const std::string what = "a submission on " + physical_.identity.device_name +
                                 " did not finish within " + std::to_string(timeout.count()) +
                                 " ms (" + std::string(timeout_name) + ")";
        // Everything the submission uses must outlive it, so give a slow dispatch a grace period
        // before declaring the device hung; the caller still gets the error either way.
        const VkResult late = vkWaitForFences(device, 1, &fence, VK_TRUE, grace_period_ns);
        if (late == VK_SUCCESS) {
            throw TimeoutError(
                what +
                "; it finished later, so the dispatch is slow rather than "
                "hung: " +
                (raise_hint.empty() ? std::string("raise the timeout") : std::string(raise_hint)));
        }
        // Still running: waiting could hang forever. Leave the command buffer to the pool and
        // refuse further submissions on this device.
        commands.release();
        hung_ = true;
        throw TimeoutError(what +
                           " nor in the grace period after it; the dispatch hung and the "
                           "device cannot be used any more");
    }
    check(waited, "vkWaitForFences");
}

}  // namespace spvtune::vulkan
