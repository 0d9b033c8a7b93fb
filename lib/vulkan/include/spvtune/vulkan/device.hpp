#pragma once

#include <chrono>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>

#include <vulkan/vulkan.h>

#include <spvtune/vulkan/instance.hpp>
#include <spvtune/vulkan/physical_device_info.hpp>
#include <spvtune/vulkan/unique_handle.hpp>

namespace spvtune::vulkan {

struct DeviceOptions {
    /// Longest wait for one submission; a hung dispatch becomes a TimeoutError, not a hang.
    std::chrono::milliseconds fence_timeout{30'000};
    /// How to raise the fence timeout, for the error of a submission that missed it but
    /// finished later (slow, not hung); empty: "raise the timeout".
    std::string fence_timeout_hint{};
    /// Longest wait for a warm-up submission (ComputeJob::warm_up), which runs no workgroups
    /// but may wait for a driver that compiles pipelines at their first dispatch: a compile is
    /// not a kernel, so it gets a build's time rather than a kernel's.
    std::chrono::milliseconds compile_timeout{120'000};
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
    /// The same, waiting at most `timeout` rather than the fence timeout; `timeout_name` names
    /// it in the TimeoutError ("the compile timeout"), and `raise_hint` says how to raise it.
    void submit_and_wait(const std::function<void(VkCommandBuffer)>& record,
                         std::chrono::milliseconds timeout, std::string_view timeout_name,
                         std::string_view raise_hint = {});

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
