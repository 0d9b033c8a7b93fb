#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <spvtune/vulkan/device.hpp>
#include <spvtune/vulkan/instance.hpp>

namespace spvtune::test {

/// Collects validation-layer messages from any thread.
class ValidationLog {
  public:
    void add(const std::string& message) {
        std::lock_guard lock(mutex_);
        messages_.push_back(message);
    }
    std::vector<std::string> messages() const {
        std::lock_guard lock(mutex_);
        return messages_;
    }

  private:
    mutable std::mutex mutex_;
    std::vector<std::string> messages_;
};

/// A validation-enabled instance (synchronization validation included) and a device on the default
/// selection (lavapipe without a GPU). On destruction it destroys the device, then the instance
/// (the layer reports leaked objects then), and fails the running test for every validation message
/// it saw.
class VulkanFixture {
  public:
    explicit VulkanFixture(vulkan::DeviceOptions options = {});
    ~VulkanFixture();
    VulkanFixture(const VulkanFixture&) = delete;
    VulkanFixture& operator=(const VulkanFixture&) = delete;

    vulkan::Instance& instance() { return *instance_; }
    vulkan::Device& device() { return *device_; }

  private:
    std::shared_ptr<ValidationLog> log_ = std::make_shared<ValidationLog>();
    std::unique_ptr<vulkan::Instance> instance_;
    std::unique_ptr<vulkan::Device> device_;
};

/// Path of a shipped kernel's SPIR-V in the build tree.
std::string kernel_path(const std::string& name);

}  // namespace spvtune::test
