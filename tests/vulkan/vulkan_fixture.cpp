#include "vulkan_fixture.hpp"

#include <doctest/doctest.h>

#include <spvtune/vulkan/device_selector.hpp>

namespace spvtune::test {

VulkanFixture::VulkanFixture(vulkan::DeviceOptions device_options) {
    vulkan::InstanceOptions options;
    options.validation = true;
    options.synchronization_validation = true;
    options.validation_sink = [log = log_](const std::string& message) { log->add(message); };
    instance_ = std::make_unique<vulkan::Instance>(options);
    device_ = std::make_unique<vulkan::Device>(
        *instance_, vulkan::select_device(instance_->devices(), ""), device_options);
}

VulkanFixture::~VulkanFixture() {
    device_.reset();
    instance_.reset();
    for (const std::string& message : log_->messages()) {
        FAIL_CHECK(message);
    }
}

std::string kernel_path(const std::string& name) {
    // Appended in place: g++ 12 warns falsely (-Warray-bounds) on the inlined operator+ chain
    // once a unity batch gives it more to inline.
    std::string path = SPVTUNE_KERNEL_DIR;
    path.append("/").append(name).append(".spv");
    return path;
}

}  // namespace spvtune::test
