#include <cstdlib>
#include <stdexcept>
#include <string_view>

#include <spvtune/vulkan/device_selector.hpp>
#include <spvtune/vulkan/selected_device.hpp>

namespace spvtune::vulkan {

InstanceOptions instance_options_from_environment() {
    InstanceOptions options;
    const char* validation = std::getenv("SPVTUNE_VALIDATION");
    options.validation = validation != nullptr && std::string_view(validation) == "1";
    // Missing barriers are the misuse a CPU driver hides best, and validation runs are rare.
    options.synchronization_validation = options.validation;
    return options;
}

SelectedDevice::SelectedDevice(std::string_view selector, DeviceAccess access,
                               DeviceOptions options)
    : instance_(std::make_unique<Instance>(instance_options_from_environment())),
      physical_(&select_device(instance_->devices(), selector)) {
    if (access == DeviceAccess::logical) {
        device_ = std::make_unique<Device>(*instance_, *physical_, options);
    }
}

SelectedDevice::~SelectedDevice() {
    // The validation layer reports objects still alive when the instance goes.
    device_.reset();
    instance_.reset();
}

Device& SelectedDevice::device() {
    if (!device_) {
        throw std::logic_error("the device " + physical_->identity.device_name +
                               " was selected without a logical device");
    }
    return *device_;
}

}  // namespace spvtune::vulkan
