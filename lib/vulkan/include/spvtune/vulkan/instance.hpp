#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>

#include <spvtune/vulkan/physical_device_info.hpp>
#include <spvtune/vulkan/unique_handle.hpp>

namespace spvtune::vulkan {

/// Receives every validation-layer message of warning or error severity.
using ValidationSink = std::function<void(const std::string& message)>;

struct InstanceOptions {
    /// Enable VK_LAYER_KHRONOS_validation; creation fails with a clear error when it is absent.
    bool validation = false;
    /// With `validation`, also run the layer's synchronization validation: a missing barrier
    /// between dispatches is reported as a hazard even on a driver (lavapipe) that happens to
    /// run them in order and so never shows the race in its results. Slows command recording.
    bool synchronization_validation = false;
    /// Where validation messages go; when empty they are written to stderr.
    ValidationSink validation_sink;
};

/// The Vulkan version the loader supports (vkEnumerateInstanceVersion), as "1.3.239"; loads
/// no driver.
std::string loader_version();

/// The Vulkan instance, plus the debug messenger when validation is on.
///
/// Not copyable or movable: the messenger's callback points at this object, and every device
/// created from it must be destroyed first (the layer reports leaks at device destruction).
class Instance {
  public:
    explicit Instance(InstanceOptions options = {});
    ~Instance();
    Instance(const Instance&) = delete;
    Instance& operator=(const Instance&) = delete;

    VkInstance handle() const noexcept { return instance_.get(); }
    bool validation_enabled() const noexcept { return options_.validation; }

    /// Every physical device, in the loader's order, with identity, limits and queue choice.
    const std::vector<PhysicalDeviceInfo>& devices() const noexcept { return devices_; }

  private:
    static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(
        VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
        const VkDebugUtilsMessengerCallbackDataEXT* data, void* user);

    InstanceOptions options_;
    UniqueHandle<VkInstance> instance_;
    UniqueHandle<VkDebugUtilsMessengerEXT> messenger_;
    std::vector<PhysicalDeviceInfo> devices_;
};

}  // namespace spvtune::vulkan
