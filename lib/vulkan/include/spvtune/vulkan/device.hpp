#pragma once

#include <chrono>
#include <functional>
#include <mutex>

#include <vulkan/vulkan.h>

#include <spvtune/vulkan/instance.hpp>
#include <spvtune/vulkan/physical_device_info.hpp>
#include <spvtune/vulkan/unique_handle.hpp>

namespace spvtune::vulkan {

struct DeviceOptions {
    /// Longest wait for one submission; a hung dispatch becomes a TimeoutError, not a hang.
    std::chrono::milliseconds fence_timeout{30'000};
    /// Time dispatches with the host clock even where the queue has timestamps (to compare
    /// the two, or to work around a driver's broken timestamps).
    bool host_timing = false;
};

/// A logical device with one compute queue. Submissions are serialised internally, so one
/// Device may be shared by threads; objects created from it must be destroyed before it.
class Device {
  public:
    Device(const Instance& instance, const PhysicalDeviceInfo& physical,
           DeviceOptions options = {});
    ~Device();
    Device(const Device&) = delete;
    Device& operator=(const Device&) = delete;

    VkDevice handle() const noexcept { return device_.get(); }
    const PhysicalDeviceInfo& info() const noexcept { return physical_; }
    /// The optional features enabled on this device: every one the device supports.
    const ShaderFeatures& features() const noexcept { return physical_.features; }
    const DeviceOptions& options() const noexcept { return options_; }
    /// Whether dispatches are timed with device timestamps (else with the host clock).
    bool timestamps_enabled() const noexcept {
        return physical_.supports_timestamps() && !options_.host_timing;
    }

    /// Records commands into a fresh primary command buffer, submits it on the compute queue
    /// and waits for completion within the fence timeout.
    void submit_and_wait(const std::function<void(VkCommandBuffer)>& record);

    /// Waits until the device is idle (used before destroying objects in flight).
    void wait_idle();

  private:
    PhysicalDeviceInfo physical_;
    DeviceOptions options_;
    UniqueHandle<VkDevice> device_;
    VkQueue queue_ = VK_NULL_HANDLE;
    std::mutex submit_mutex_;
    bool hung_ = false;
    UniqueHandle<VkCommandPool> command_pool_;
    UniqueHandle<VkFence> fence_;
};

}  // namespace spvtune::vulkan
