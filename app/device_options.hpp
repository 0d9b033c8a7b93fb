#pragma once

#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include <spvtune/tune/hardware_identity.hpp>
#include <spvtune/vulkan/device.hpp>
#include <spvtune/vulkan/instance.hpp>

namespace spvtune::app {

/// What SPVTUNE_VALIDATION asks of every command's Vulkan instance: with `1`, the Khronos
/// validation layer, synchronization validation included.
vulkan::InstanceOptions instance_options();

/// Adds `--device SEL` to a command (empty: the default device; see vulkan::select_device).
void add_device_option(CLI::App& command, std::string& selector);

/// A Vulkan instance and a logical device on the selected physical device, destroyed in the
/// right order. Validation is on when SPVTUNE_VALIDATION=1, so users can check their kernels
/// against the Khronos layer without rebuilding.
class SelectedDevice {
  public:
    explicit SelectedDevice(const std::string& selector);
    ~SelectedDevice();
    SelectedDevice(const SelectedDevice&) = delete;
    SelectedDevice& operator=(const SelectedDevice&) = delete;

    vulkan::Instance& instance() { return *instance_; }
    vulkan::Device& device() { return *device_; }

  private:
    std::unique_ptr<vulkan::Instance> instance_;
    std::unique_ptr<vulkan::Device> device_;
};

/// The hardware identity of the selected device, without creating a logical device.
tune::HardwareIdentity selected_hardware_identity(const std::string& selector);

}  // namespace spvtune::app
