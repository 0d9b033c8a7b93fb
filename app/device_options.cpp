#include "device_options.hpp"

#include <cstdlib>
#include <string_view>

#include <spvtune/run/device_bridge.hpp>
#include <spvtune/vulkan/device_selector.hpp>

namespace spvtune::app {

vulkan::InstanceOptions instance_options() {
    vulkan::InstanceOptions options;
    const char* validation = std::getenv("SPVTUNE_VALIDATION");
    options.validation = validation != nullptr && std::string_view(validation) == "1";
    // Missing barriers are the misuse a CPU driver hides best, and validation runs are rare.
    options.synchronization_validation = options.validation;
    return options;
}

void add_device_option(CLI::App& command, std::string& selector) {
    command.add_option("--device", selector,
                       "Device: index, UUID or name substring (default: first discrete GPU, "
                       "else integrated, else CPU)");
}

SelectedDevice::SelectedDevice(const std::string& selector)
    : instance_(std::make_unique<vulkan::Instance>(instance_options())) {
    device_ = std::make_unique<vulkan::Device>(
        *instance_, vulkan::select_device(instance_->devices(), selector));
}

SelectedDevice::~SelectedDevice() {
    device_.reset();
    instance_.reset();
}

tune::HardwareIdentity selected_hardware_identity(const std::string& selector) {
    const vulkan::Instance instance(instance_options());
    return run::hardware_identity(vulkan::select_device(instance.devices(), selector).identity);
}

}  // namespace spvtune::app
