#pragma once

#include <memory>
#include <string_view>

#include <spvtune/vulkan/device.hpp>
#include <spvtune/vulkan/instance.hpp>
#include <spvtune/vulkan/physical_device_info.hpp>

namespace spvtune::vulkan {

/// The instance options the environment asks for: with SPVTUNE_VALIDATION=1, the Khronos
/// validation layer with synchronization validation, so that users can check their kernels
/// against the layer without rebuilding.
InstanceOptions instance_options_from_environment();

/// Whether a SelectedDevice creates a logical device on the physical device it selects.
enum class DeviceAccess {
    /// A logical device with its compute queue, to run kernels in this process.
    logical,
    /// The physical device's description only (identity, limits, features), for a process that
    /// leaves the device to others, such as a tuner whose worker processes run the kernels: a
    /// hung kernel can then never block it.
    physical,
};

/// A Vulkan instance (with the environment's options), the physical device a selector names
/// (select_device) and, unless asked otherwise, a logical device on it, destroyed in the right
/// order. What a command or an application holds to use "the device the user chose".
class SelectedDevice {
  public:
    /// Throws DeviceSelectionError when the selector names no device that can do compute, and
    /// the engine's errors when the instance or the device cannot be created. `options` are the
    /// logical device's.
    explicit SelectedDevice(std::string_view selector, DeviceAccess access = DeviceAccess::logical,
                            DeviceOptions options = {});
    ~SelectedDevice();
    SelectedDevice(const SelectedDevice&) = delete;
    SelectedDevice& operator=(const SelectedDevice&) = delete;

    const Instance& instance() const noexcept { return *instance_; }
    const PhysicalDeviceInfo& info() const noexcept { return *physical_; }
    /// Whether there is a logical device (DeviceAccess::logical).
    bool has_device() const noexcept { return device_ != nullptr; }
    /// The logical device. Throws std::logic_error when it was made with DeviceAccess::physical.
    Device& device();

  private:
    std::unique_ptr<Instance> instance_;
    const PhysicalDeviceInfo* physical_ = nullptr;  ///< one of the instance's devices
    std::unique_ptr<Device> device_;
};

}  // namespace spvtune::vulkan
