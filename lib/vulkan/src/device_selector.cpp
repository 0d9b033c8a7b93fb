#include <algorithm>
#include <cctype>
#include <charconv>

#include <spvtune/vulkan/device_selector.hpp>
#include <spvtune/vulkan/error.hpp>

namespace spvtune::vulkan {
namespace {

std::string lower(std::string_view text) {
    std::string result(text);
    std::transform(result.begin(), result.end(), result.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return result;
}

bool all_digits(std::string_view text) {
    return !text.empty() &&
           std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); });
}

bool looks_like_uuid(std::string_view text) {
    if (text.size() != 36) {
        return false;
    }
    for (std::size_t i = 0; i < text.size(); ++i) {
        const bool dash_position = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash_position ? text[i] != '-' : !std::isxdigit(static_cast<unsigned char>(text[i]))) {
            return false;
        }
    }
    return true;
}

std::string device_list(const std::vector<PhysicalDeviceInfo>& devices) {
    if (devices.empty()) {
        return "no Vulkan devices were found (is a Vulkan driver installed? on a machine without "
               "a GPU install mesa-vulkan-drivers for lavapipe)";
    }
    std::string text = "available devices:";
    for (const auto& device : devices) {
        text += "\n  " + std::to_string(device.index) + ": " + device.identity.device_name + " (" +
                to_string(device.identity.device_type) + ", " +
                uuid_to_string(device.identity.device_uuid) + ")";
    }
    return text;
}

const PhysicalDeviceInfo& require_compute(const PhysicalDeviceInfo& device,
                                          std::string_view selector) {
    if (!device.supports_compute()) {
        throw DeviceSelectionError("device selector '" + std::string(selector) + "' matches " +
                                   device.identity.device_name +
                                   ", which has no compute-capable queue family");
    }
    return device;
}

}  // namespace

const PhysicalDeviceInfo& select_device(const std::vector<PhysicalDeviceInfo>& devices,
                                        std::string_view selector) {
    if (selector.empty()) {
        for (VkPhysicalDeviceType type :
             {VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU, VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU,
              VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU, VK_PHYSICAL_DEVICE_TYPE_CPU,
              VK_PHYSICAL_DEVICE_TYPE_OTHER}) {
            for (const auto& device : devices) {
                if (device.identity.device_type == type && device.supports_compute()) {
                    return device;
                }
            }
        }
        throw DeviceSelectionError("no device can run compute work; " + device_list(devices));
    }

    if (all_digits(selector)) {
        std::size_t index = 0;
        const auto [end, error] =
            std::from_chars(selector.data(), selector.data() + selector.size(), index);
        if (error == std::errc{} && index < devices.size()) {
            return require_compute(devices[index], selector);
        }
        throw DeviceSelectionError("device index " + std::string(selector) + " is out of range; " +
                                   device_list(devices));
    }

    const std::string wanted = lower(selector);
    if (looks_like_uuid(selector)) {
        for (const auto& device : devices) {
            if (uuid_to_string(device.identity.device_uuid) == wanted) {
                return require_compute(device, selector);
            }
        }
        throw DeviceSelectionError("no device has UUID " + std::string(selector) + "; " +
                                   device_list(devices));
    }

    for (const auto& device : devices) {
        if (lower(device.identity.device_name).find(wanted) != std::string::npos) {
            return require_compute(device, selector);
        }
    }
    throw DeviceSelectionError("no device name contains '" + std::string(selector) + "'; " +
                               device_list(devices));
}

}  // namespace spvtune::vulkan
